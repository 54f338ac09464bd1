import Core

/// Whether a host names this machine by its spelling alone, with no resolver
/// asked: the one definition every rule about plain http uses (the URL's
/// host, a `--connect-to` target, a proxy; SecurityPolicy.swift).
///
/// Loopback is `localhost` (RFC 6761 §6.3; ASCII letters in any case), an
/// IPv6 literal equal to ::1 (RFC 4291 §2.5.3) in any spelling `inet_pton`
/// reads, or an IPv4 literal in 127.0.0.0/8 written as four decimal parts of
/// 0–255 without leading zeros, the form `inet_pton` reads. Every other
/// spelling is a name that DNS, a proxy or `/etc/hosts` answers for:
/// `127.1`, `0x7f.0.0.1`, `0177.0.0.1` and `127.000.000.001` (numbers only to
/// `inet_aton` and curl's URL parser), `127.0.0.1.` and `localhost.` (a
/// trailing dot is a DNS root), `127.0.0.1.nip.io`, `app.localhost`,
/// percent-encoded or zone-scoped hosts.
package enum Loopback {
    /// `host` as URIReference gives it: brackets removed.
    package static func isLoopback(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        if bytes.count == 9, ASCII.string(bytes).lowercased() == "localhost", bytes.allSatisfy({ $0 < 0x80 }) { return true }
        if let address = ipv4(bytes[...]) { return address[0] == 127 }
        if let address = ipv6(bytes[...]) { return address == [UInt8](repeating: 0, count: 15) + [1] }
        return false
    }

    /// Four decimal parts, each 0–255, no sign, no leading zero (`0` itself is fine).
    static func ipv4(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let parts = bytes.split(separator: ASCII.dot, omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(ASCII.isDigit),
                  part.count == 1 || part.first != UInt8(ascii: "0") else { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 255 else { return nil }
            out.append(UInt8(value))
        }
        return out
    }

    /// RFC 4291 §2.2 text forms, as `inet_pton(AF_INET6)` reads them: groups
    /// of 1–4 hex digits, at most one `::`, optionally a dotted IPv4 tail.
    /// No zone (`%…`): a scoped address is not one this rule vouches for.
    static func ipv6(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard bytes.contains(ASCII.colon) else { return nil }
        var head: [UInt8] = [], tail: [UInt8] = []
        var rest = bytes
        var sawDoubleColon = false
        if rest.starts(with: [ASCII.colon, ASCII.colon]) {
            sawDoubleColon = true
            rest = rest.dropFirst(2)
            if rest.isEmpty { return [UInt8](repeating: 0, count: 16) }
        } else if rest.first == ASCII.colon {
            return nil
        }
        while !rest.isEmpty {
            let end = rest.firstIndex(of: ASCII.colon) ?? rest.endIndex
            let group = rest[..<end]
            var groupBytes: [UInt8]
            if end == rest.endIndex, group.contains(ASCII.dot) {
                guard let four = ipv4(group) else { return nil }
                groupBytes = four
            } else {
                guard (1...4).contains(group.count), group.allSatisfy(isHexDigit),
                      let value = UInt16(ASCII.string(group), radix: 16) else { return nil }
                groupBytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            if sawDoubleColon { tail += groupBytes } else { head += groupBytes }
            guard end < rest.endIndex else { rest = rest[end...]; break }
            rest = rest[(end + 1)...]
            if rest.first == ASCII.colon {
                guard !sawDoubleColon else { return nil }
                sawDoubleColon = true
                rest = rest.dropFirst()
                if rest.isEmpty { break }
            } else if rest.isEmpty {
                return nil  // a single trailing colon
            }
        }
        let written = head.count + tail.count
        if sawDoubleColon {
            guard written <= 14 else { return nil }
            return head + [UInt8](repeating: 0, count: 16 - written) + tail
        }
        return written == 16 ? head : nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
