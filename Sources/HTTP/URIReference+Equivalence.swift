import Core

/// Syntax-based normalisation (RFC 3986 §6.2.2), for deciding whether two
/// references name the same place: scheme and host case (§6.2.2.1),
/// percent-encoded unreserved characters decoded and the remaining hex in
/// upper case (§6.2.2.2), dot segments removed (§6.2.2.3) after decoding so
/// that `%2E%2E` counts; then the scheme's defaults (§6.2.3): the default
/// port, and an empty http(s) path being `/`.
extension URIReference {
    /// Lower-cased, unreserved characters decoded, without a trailing dot
    /// (`localhost.` is the same host to a resolver); nil without authority.
    package var comparableHost: String? {
        guard let host else { return nil }
        var decoded = Self.normalisingPercentEncoding(host).lowercased()
        if decoded.utf8.count > 1, decoded.utf8.last == ASCII.dot { decoded.removeLast() }
        return decoded
    }

    /// The path as a server would route it.
    package var comparablePath: String {
        let path = Self.removeDotSegments(Self.normalisingPercentEncoding(path))
        return authority != nil && path.isEmpty ? "/" : path
    }

    /// RFC 3986 §2.3: the unreserved characters, which encoding never changes.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "-") || byte == ASCII.dot
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `%7E` → `~`, `%2f` → `%2F`; every other byte kept.
    static func normalisingPercentEncoding(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = FormEncoding.hexValue(bytes[index + 1]), let low = FormEncoding.hexValue(bytes[index + 2]) {
                let byte = high << 4 | low
                if isUnreserved(byte) {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
                }
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return ASCII.string(out)
    }
}
