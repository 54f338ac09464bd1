import Core

/// A `no_proxy` list read the way libcurl reads one (lib/noproxy.c,
/// CURLOPT_NOPROXY): names separated by commas (blanks around them
/// allowed), `*` alone for every host. A name matches the host itself or
/// any host below it (`example.com` and `.example.com` both match
/// `www.example.com`, never `notexample.com`), case-insensitively, one
/// trailing dot ignored on either side; ports play no part. For an IP
/// literal host the entries are addresses, optionally `/bits` (CIDR).
package struct NoProxyList: Equatable, Sendable {
    let text: String

    package init(_ text: String) {
        self.text = text
    }

    /// Whether a request to `host` (brackets removed) goes direct.
    package func matches(_ host: String) -> Bool {
        guard !text.isEmpty, !host.isEmpty else { return false }
        if text == "*" { return true }
        let name = Array(host.utf8)[...]
        let ipv4 = Loopback.ipv4(name)
        let ipv6 = ipv4 == nil ? Loopback.ipv6(name) : nil
        for entry in Self.entries(Array(text.utf8)[...]) {
            if let ipv4 {
                if Self.address(ipv4, isIn: entry, length: 4) { return true }
            } else if let ipv6 {
                if Self.address(ipv6, isIn: entry, length: 16) { return true }
            } else if Self.name(name, matches: entry) {
                return true
            }
        }
        return false
    }

    /// The entries as libcurl walks them: blanks skipped, an entry runs to
    /// a blank or a comma, and anything but a comma after it ends the list.
    static func entries(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var out: [ArraySlice<UInt8>] = []
        var rest = bytes
        while !rest.isEmpty {
            rest = rest.drop(while: isBlank)
            let entry = rest.prefix { !isBlank($0) && $0 != UInt8(ascii: ",") }
            if !entry.isEmpty { out.append(entry) }
            rest = rest[entry.endIndex...].drop(while: isBlank)
            guard rest.first == UInt8(ascii: ",") else { break }
            rest = rest.drop { $0 == UInt8(ascii: ",") }
        }
        return out
    }

    static func name(_ host: ArraySlice<UInt8>, matches entry: ArraySlice<UInt8>) -> Bool {
        let host = ASCII.string(host.last == ASCII.dot ? host.dropLast() : host).lowercased()
        var pattern = entry.last == ASCII.dot ? entry.dropLast() : entry
        if pattern.first == ASCII.dot { pattern = pattern.dropFirst() }
        let wanted = ASCII.string(pattern).lowercased()
        guard !wanted.isEmpty || host.isEmpty else { return false }
        return host == wanted || host.hasSuffix("." + wanted)
    }

    /// `address` against `a.b.c.d[/bits]` or an IPv6 `addr[/bits]`; no
    /// bits (or 0) compares the whole address, as libcurl does for IPv4.
    static func address(_ address: [UInt8], isIn entry: ArraySlice<UInt8>, length: Int) -> Bool {
        let slash = entry.firstIndex(of: ASCII.slash)
        let addressPart = entry[..<(slash ?? entry.endIndex)]
        guard let network = length == 4 ? Loopback.ipv4(addressPart) : Loopback.ipv6(addressPart) else { return false }
        var bits = length * 8
        if let slash {
            let digits = entry[(slash + 1)...]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(ASCII.isDigit), let value = Int(ASCII.string(digits)) else { return false }
            guard value <= length * 8 else { return false }
            if value > 0 { bits = value }
        }
        for index in 0..<length {
            let used = min(8, max(0, bits - index * 8))
            guard used > 0 else { break }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - used))
            if address[index] & mask != network[index] & mask { return false }
        }
        return true
    }
}
