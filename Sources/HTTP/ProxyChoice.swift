import Core

/// The proxy one request goes through, or none: what CURLOPT_PROXY gets,
/// and what the plain-http rule and the trace may say about it.
package struct ProxyChoice: Equatable, Sendable {
    /// The proxy as configured; nil for a direct connection.
    package let url: String?
    /// Where it was configured: the explicit option or a variable.
    package let source: ProxySource

    package static let direct = ProxyChoice(nil, source: .none)

    init(_ url: String?, source: ProxySource) {
        // curl takes "" as "no proxy", wherever it comes from.
        let url = url?.isEmpty == true ? nil : url
        self.url = url
        self.source = url == nil ? .none : source
    }

    package var isDirect: Bool { url == nil }

    /// Whether the user named this proxy with the explicit option.
    package var isExplicit: Bool { source == .option }
    /// An https proxy: the connection to it is TLS of its own, which the
    /// run's trust store does not verify (Curl/CurlTransport.swift).
    package var speaksTLS: Bool { reference?.scheme?.lowercased() == "https" }

    /// The value for CURLOPT_PROXY: "" turns libcurl's own reading of the
    /// environment off.
    package var curlValue: String { url ?? "" }

    /// The proxy URL read as libcurl does: no scheme means `http://`.
    var reference: URIReference? {
        guard let url else { return nil }
        return URIReference(Self.hasScheme(url) ? url : "http://" + url)
    }

    static func hasScheme(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        return bytes.indices.contains { bytes[$0...].starts(with: Array("://".utf8)) }
    }

    /// The proxy's host, brackets removed; nil when the value cannot be
    /// read, so where it connects is unknown.
    package var host: String? {
        guard let host = reference?.host, !host.isEmpty else { return nil }
        return host
    }

    /// For the trace and messages: the proxy without its credentials.
    package var shown: String {
        guard let reference, let authority = reference.authority else { return "a proxy that cannot be read" }
        var copy = reference
        copy.query = nil
        copy.fragment = nil
        if let at = authority.utf8.lastIndex(of: ASCII.at) {
            copy.authority = SecretScrubber.mask + "@" + String(authority[authority.utf8.index(after: at)...])
        }
        return copy.text
    }

    /// The userinfo of a proxy URL as written, its password as written,
    /// and `user` and `password` percent-decoded as libcurl sends them
    /// (Proxy-Authorization, RFC 7617).
    package static func credentials(in url: String) -> (userinfo: String, rawPassword: String, user: String, password: String)? {
        let reference = URIReference(hasScheme(url) ? url : "http://" + url)
        guard let userinfo = reference?.userinfo ?? Self.userinfoBeforeAt(url) else { return nil }
        let parts = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPassword = parts.count > 1 ? String(parts[1]) : ""
        return (userinfo, rawPassword, FormEncoding.unescape(parts[0]), FormEncoding.unescape(Substring(rawPassword)))
    }

    /// A value URIReference refuses (a space in the password) may still
    /// carry credentials: everything between `://` and the last `@`.
    private static func userinfoBeforeAt(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        var start = 0
        if let index = bytes.indices.first(where: { bytes[$0...].starts(with: Array("://".utf8)) }) { start = index + 3 }
        guard let at = bytes[start...].lastIndex(of: ASCII.at) else { return nil }
        return ASCII.string(bytes[start..<at])
    }
}

/// Where a proxy was configured: nowhere (a direct connection), the explicit
/// option (`--proxy`), or an environment variable, by its name.
package enum ProxySource: Equatable, Sendable {
    case none
    case option
    case variable(String)
}
