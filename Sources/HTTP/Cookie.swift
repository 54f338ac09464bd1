import Core

/// One stored cookie (RFC 6265 §5.3), and the parsing of a Set-Cookie value
/// into one (§5.2) with the checks that depend on the request that set it.
package struct Cookie: Equatable, Sendable {
    var name: String
    var value: String
    /// Lower-cased, without a leading dot.
    var domain: String
    /// No Domain attribute: sent back only to exactly this host.
    var hostOnly: Bool
    var path: String
    var secure: Bool
    var httpOnly: Bool
    /// Seconds since 1970; nil for a session cookie (ours all end with the process).
    var expiry: Double?
    var creation: Double
    /// Breaks ties between cookies created at the same `now`, keeping §5.4's
    /// "earlier creation first" stable.
    var sequence: Int

    /// Longer values are a flood, not a cookie (browsers cap at 4 KiB).
    static let maxLength = 8_192

    /// Parses one Set-Cookie value received from `scheme://host/path`; nil
    /// when §5.2 or §5.3 says to ignore it. An `expiry` at or before `now`
    /// means "delete the stored one".
    init?(setCookie header: String, scheme: String, host requestHost: String, path requestPath: String, now: Double) {
        let bytes = Array(header.utf8)
        // 6265bis §5.6: control characters (other than tab) void the whole line.
        guard bytes.count <= Self.maxLength, !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            return nil
        }
        let parts = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        name = Self.trimmed(pair[pair.startIndex..<equals])
        value = Self.trimmed(pair[(equals + 1)...])
        guard !name.isEmpty else { return nil }

        var expires: Double?, maxAge: Double?, domainAttribute: String?, pathAttribute: String?
        secure = false
        httpOnly = false
        // The last of a repeated attribute wins (§5.3 step 3 and friends).
        for part in parts.dropFirst() {
            let equals = part.firstIndex(of: UInt8(ascii: "=")) ?? part.endIndex
            let key = Self.trimmed(part[part.startIndex..<equals]).lowercased()
            let attribute = equals < part.endIndex ? Self.trimmed(part[(equals + 1)...]) : ""
            switch key {
            case "expires": expires = CookieDate.parse(attribute) ?? expires
            case "max-age": maxAge = Self.deltaSeconds(attribute).map { $0 <= 0 ? -.infinity : now + $0 } ?? maxAge
            case "domain" where !attribute.isEmpty:
                domainAttribute = (attribute.hasPrefix(".") ? String(attribute.dropFirst()) : attribute).lowercased()
            case "path": pathAttribute = attribute.hasPrefix("/") ? attribute : nil
            case "secure": secure = true
            case "httponly": httpOnly = true
            default: break
            }
        }
        expiry = maxAge ?? expires  // Max-Age wins whatever the order (§5.3 step 3)

        let host = requestHost.lowercased()
        if let domainAttribute, domainAttribute != host {
            // A bare label (`com`, `local`) is a suffix as far as we can
            // tell without the list; one that does not cover the host is foreign.
            guard domainAttribute.contains("."), Self.domainMatches(host, domainAttribute) else { return nil }
            domain = domainAttribute
            hostOnly = false
        } else {
            domain = host
            // Domain=host on a dotted name still covers its subdomains (§5.3 step 6).
            hostOnly = domainAttribute == nil || !host.contains(".")
        }
        path = pathAttribute ?? Self.defaultPath(requestPath)
        let secureScheme = scheme.lowercased() == "https"
        if secure, !secureScheme { return nil }  // 6265bis §5.7: only a secure origin sets Secure
        // Cookie prefixes (6265bis §4.1.3): a name promises how it was set.
        let lowerName = name.lowercased()
        if lowerName.hasPrefix("__secure-"), !secure { return nil }
        if lowerName.hasPrefix("__host-"), !secure || !hostOnly || path != "/" { return nil }
        creation = now
        sequence = 0
    }

    // MARK: - Matching (§5.1.3, §5.1.4)

    /// `host` is `domain` or a name under it; an IP address only matches itself.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard !isIPAddress(host), !isIPAddress(domain) else { return false }
        let hostBytes = Array(host.utf8), suffix = Array(".\(domain)".utf8)
        return hostBytes.count > suffix.count && hostBytes.suffix(suffix.count).elementsEqual(suffix)
    }

    /// `requestPath` is `cookiePath` or below it at a `/` boundary.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let request = Array(requestPath.utf8), cookie = Array(cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request.count > cookie.count && request[cookie.count] == UInt8(ascii: "/")
    }

    /// The directory of the request path: `/a/b/c` → `/a/b`, `/a` → `/`.
    static func defaultPath(_ requestPath: String) -> String {
        let path = requestPath.prefix { $0 != "?" && $0 != "#" }
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// IPv6 (has a colon, or brackets) or IPv4 (the last label is a number).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") || host.hasPrefix("[") { return true }
        let last = host.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        return !last.isEmpty && last.allSatisfy { $0.isASCII && $0.isNumber }
    }

    // MARK: - Parsing helpers

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// §5.2.2: an optional `-` and digits; anything else ignores the attribute.
    private static func deltaSeconds(_ text: String) -> Double? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        // Saturating: a 40-digit Max-Age is just "forever".
        let magnitude = digits.utf8.prefix(18).reduce(0.0) { $0 * 10 + Double($1 - UInt8(ascii: "0")) }
        return text.hasPrefix("-") ? -magnitude : magnitude
    }
}
