/// A URI reference split into its RFC 3986 §3 components, kept as the exact
/// text received. authcode resolves `Location` and form actions itself (§5.2)
/// because Foundation's URL normalises and, on Linux, has resolved relative
/// references wrongly; and a redirect_uri must go out byte-for-byte.
public struct URIReference: Equatable, Sendable {
    public var scheme: String?
    /// userinfo@host:port, without the leading `//`; nil when there is no authority.
    public var authority: String?
    public var path: String
    public var query: String?
    public var fragment: String?

    public init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits a reference per RFC 3986 Appendix B. Returns nil for text no
    /// server should send as a URI: control characters, spaces, or a bracketed
    /// IPv6 host that is not closed.
    public init?(_ text: String) {
        guard !text.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else { return nil }
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        // A scheme is letters first, then letters, digits, + - . up to a colon
        // that comes before any slash.
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/"),
           let first = rest.first, first.isASCII, first.isLetter,
           rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
        if let authority, !URIReference.authorityIsWellFormed(authority) { return nil }
    }

    private static func authorityIsWellFormed(_ authority: String) -> Bool {
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return false }
            let after = hostPort[hostPort.index(after: close)...]
            return after.isEmpty || (after.hasPrefix(":") && after.dropFirst().allSatisfy(\.isNumber))
        }
        if let colon = hostPort.lastIndex(of: ":") {
            return hostPort[hostPort.index(after: colon)...].allSatisfy(\.isNumber)
        }
        return !hostPort.contains("[") && !hostPort.contains("]")
    }

    /// The reference written back out (RFC 3986 §5.3). A path that starts
    /// with `//` but has no authority gets a `/.` prefix (as WHATWG URL does):
    /// written bare it would read back as an authority, so `http:/.//host/cb`
    /// resolved would name a different place once sent (found by fuzzing).
    public var text: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority } else if path.hasPrefix("//") { out += "/." }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    public var isAbsolute: Bool { scheme != nil }

    /// Host without brackets or port, lower-cased (hosts are case-insensitive).
    public var host: String? {
        guard let authority else { return nil }
        var hostPort = Substring(authority.split(separator: "@", omittingEmptySubsequences: false).last ?? "")
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            return String(hostPort[hostPort.index(after: hostPort.startIndex)..<close]).lowercased()
        }
        if let colon = hostPort.lastIndex(of: ":") { hostPort = hostPort[..<colon] }
        return String(hostPort).lowercased()
    }

    /// The explicit port, if any and numeric.
    public var explicitPort: Int? {
        guard let authority else { return nil }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let afterBracket = hostPort.lastIndex(of: "]").map { hostPort[$0...] } ?? hostPort[...]
        guard let colon = afterBracket.lastIndex(of: ":") else { return nil }
        let digits = afterBracket[afterBracket.index(after: colon)...]
        return digits.isEmpty ? nil : Int(digits)
    }

    /// The port a connection would use: explicit, else the scheme's default.
    public var effectivePort: Int? {
        if let explicitPort { return explicitPort }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// RFC 3986 §5.2.2: this reference resolved against an absolute base.
    public func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if let authority {
            return URIReference(scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query, fragment: fragment)
        }
        let merged: String
        if path.hasPrefix("/") {
            merged = path
        } else if base.authority != nil && base.path.isEmpty {
            merged = "/" + path
        } else if let lastSlash = base.path.lastIndex(of: "/") {
            merged = base.path[...lastSlash] + path
        } else {
            merged = path
        }
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(merged), query: query, fragment: fragment)
    }

    /// RFC 3986 §5.2.4, on whole segments.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let absolute = path.hasPrefix("/")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(absolute ? 1 : 0)
        var trailingSlash = false
        for segment in segments {
            trailingSlash = false
            switch segment {
            case ".":
                trailingSlash = true
            case "..":
                if !output.isEmpty { output.removeLast() }
                trailingSlash = true
            default:
                output.append(segment)
            }
        }
        var result = (absolute ? "/" : "") + output.joined(separator: "/")
        if trailingSlash && !result.hasSuffix("/") { result += "/" }
        return result
    }

    /// The URL without query, fragment and userinfo: safe for error
    /// messages, since codes and tokens travel in queries and a password
    /// may sit in `user:password@`.
    public var withoutQuery: String {
        var copy = self
        copy.query = nil
        copy.fragment = nil
        copy.authority = authority.map { $0.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? $0 }
        return copy.text
    }

    /// The same reference with the password of `user:password@` masked.
    public func maskingUserinfoPassword(with mask: String) -> URIReference {
        guard let authority, let at = authority.lastIndex(of: "@") else { return self }
        let userinfo = authority[..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return self }
        var copy = self
        copy.authority = "\(userinfo[..<colon]):\(mask)\(authority[at...])"
        return copy
    }
}
