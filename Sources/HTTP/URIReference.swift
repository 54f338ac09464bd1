import Core

/// A URI reference split into its RFC 3986 §3 components, kept as the exact
/// text received. authcode resolves `Location` and form actions itself (§5.2)
/// because Foundation's URL normalises and, on Linux, has resolved relative
/// references wrongly; and a redirect_uri must go out byte-for-byte.
package struct URIReference: Equatable, Sendable {
    package var scheme: String?
    /// userinfo@host:port, without the leading `//`; nil when there is no authority.
    package var authority: String?
    package var path: String
    package var query: String?
    package var fragment: String?

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits a reference per RFC 3986 Appendix B, on UTF-8 bytes. Never on
    /// Characters: a combining mark after `?` or `/` would merge with it into
    /// one grapheme and hide the delimiter, so authcode would judge one URL
    /// while curl, which splits bytes, fetches another (found by fuzzing).
    /// Returns nil for text no server should send as a URI: control
    /// characters, spaces, or a bracketed IPv6 host that is not closed.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 < 0x21 || $0 == 0x7F }) else { return nil }
        var rest = bytes[...]
        if let hash = rest.firstIndex(of: ASCII.hash) {
            fragment = ASCII.string(rest[(hash + 1)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: ASCII.question) {
            query = ASCII.string(rest[(question + 1)...])
            rest = rest[..<question]
        }
        // A scheme is a letter, then letters, digits, + - . up to a colon.
        if let colon = rest.firstIndex(of: ASCII.colon), let first = rest.first, ASCII.isLetter(first),
           rest[..<colon].allSatisfy(ASCII.isSchemeByte) {
            scheme = ASCII.string(rest[..<colon])
            rest = rest[(colon + 1)...]
        }
        if rest.starts(with: [ASCII.slash, ASCII.slash]) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: ASCII.slash) ?? afterSlashes.endIndex
            authority = ASCII.string(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = ASCII.string(rest)
        if let authority, !URIReference.authorityIsWellFormed(authority) { return nil }
    }

    /// `host:port` of an authority: what follows the last `@`.
    private static func hostPort(_ authority: String) -> ArraySlice<UInt8> {
        let bytes = Array(authority.utf8)[...]
        guard let at = bytes.lastIndex(of: ASCII.at) else { return bytes }
        return bytes[(at + 1)...]
    }

    private static func authorityIsWellFormed(_ authority: String) -> Bool {
        let hostPort = hostPort(authority)
        if hostPort.first == ASCII.openBracket {
            guard let close = hostPort.firstIndex(of: ASCII.closeBracket) else { return false }
            let after = hostPort[(close + 1)...]
            return after.isEmpty || (after.first == ASCII.colon && after.dropFirst().allSatisfy(ASCII.isDigit))
        }
        guard !hostPort.contains(ASCII.openBracket), !hostPort.contains(ASCII.closeBracket) else { return false }
        if let colon = hostPort.lastIndex(of: ASCII.colon) {
            return hostPort[(colon + 1)...].allSatisfy(ASCII.isDigit)
        }
        return true
    }

    /// The reference written back out (RFC 3986 §5.3). A path that starts
    /// with `//` but has no authority gets a `/.` prefix (as WHATWG URL does):
    /// written bare it would read back as an authority, so `http:/.//host/cb`
    /// resolved would name a different place once sent (found by fuzzing).
    package var text: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority } else if path.utf8.starts(with: [ASCII.slash, ASCII.slash]) { out += "/." }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    package var isAbsolute: Bool { scheme != nil }

    /// Host without brackets or port, lower-cased (hosts are case-insensitive).
    package var host: String? {
        guard let authority else { return nil }
        var hostPort = Self.hostPort(authority)
        if hostPort.first == ASCII.openBracket, let close = hostPort.firstIndex(of: ASCII.closeBracket) {
            return ASCII.string(hostPort[(hostPort.startIndex + 1)..<close]).lowercased()
        }
        if let colon = hostPort.lastIndex(of: ASCII.colon) { hostPort = hostPort[..<colon] }
        return ASCII.string(hostPort).lowercased()
    }

    /// The explicit port, if any and numeric.
    var explicitPort: Int? {
        guard let authority else { return nil }
        let hostPort = Self.hostPort(authority)
        let afterBracket = hostPort.lastIndex(of: ASCII.closeBracket).map { hostPort[$0...] } ?? hostPort
        guard let colon = afterBracket.lastIndex(of: ASCII.colon) else { return nil }
        let digits = afterBracket[(colon + 1)...]
        return digits.isEmpty ? nil : Int(ASCII.string(digits))
    }

    /// The port a connection would use: explicit, else the scheme's default.
    package var effectivePort: Int? {
        if let explicitPort { return explicitPort }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// The `user:password` before `@`, if any.
    package var userinfo: String? {
        guard let authority, let at = authority.utf8.lastIndex(of: ASCII.at) else { return nil }
        return String(authority[..<at])
    }

    /// The origin of an http(s) URL (RFC 6454 §4): scheme, host and port, in
    /// lower case, the port written only when it is not the default, so two
    /// origins compare as text. Nil for other schemes or without a host.
    package var origin: String? {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host, !host.isEmpty, let port = effectivePort else { return nil }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return "\(scheme)://\(shownHost)" + (isDefault ? "" : ":\(port)")
    }

    /// RFC 3986 §5.2.2: this reference resolved against an absolute base.
    package func resolved(against base: URIReference) -> URIReference {
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
        let basePath = Array(base.path.utf8)
        if path.utf8.first == ASCII.slash {
            merged = path
        } else if base.authority != nil && basePath.isEmpty {
            merged = "/" + path
        } else if let lastSlash = basePath.lastIndex(of: ASCII.slash) {
            merged = ASCII.string(basePath[...lastSlash]) + path
        } else {
            merged = path
        }
        return URIReference(scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(merged), query: query, fragment: fragment)
    }

    /// RFC 3986 §5.2.4, on whole segments split at `/` bytes.
    static func removeDotSegments(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.contains(ASCII.dot) else { return path }
        let absolute = bytes.first == ASCII.slash
        let segments = bytes.split(separator: ASCII.slash, omittingEmptySubsequences: false).dropFirst(absolute ? 1 : 0)
        var output: [ArraySlice<UInt8>] = []
        var trailingSlash = false
        for segment in segments {
            trailingSlash = false
            if segment.elementsEqual([ASCII.dot]) {
                trailingSlash = true
            } else if segment.elementsEqual([ASCII.dot, ASCII.dot]) {
                if !output.isEmpty { output.removeLast() }
                trailingSlash = true
            } else {
                output.append(segment)
            }
        }
        var result = (absolute ? "/" : "") + output.map(ASCII.string).joined(separator: "/")
        if trailingSlash && !result.hasSuffix("/") { result += "/" }
        return result
    }

    /// The URL without query, fragment and userinfo: safe for error
    /// messages, since codes and tokens travel in queries and a password
    /// may sit in `user:password@`.
    package var withoutQuery: String {
        var copy = self
        copy.query = nil
        copy.fragment = nil
        copy.authority = authority.map { ASCII.string(Self.hostPort($0)) }
        return copy.text
    }

    /// The same reference with the password of `user:password@` masked.
    func maskingUserinfoPassword(with mask: String) -> URIReference {
        guard let authority else { return self }
        let bytes = Array(authority.utf8)
        guard let at = bytes.lastIndex(of: ASCII.at), let colon = bytes[..<at].firstIndex(of: ASCII.colon) else { return self }
        var copy = self
        copy.authority = ASCII.string(bytes[..<colon]) + ":" + mask + ASCII.string(bytes[at...])
        return copy
    }
}
