import Core

/// Credentials go only to trusted origins (RFC 6454 origins: scheme, host,
/// port). The walk may pass through other origins, as a browser would, but
/// what the user handed authcode for the login stays with the servers the
/// user named: the same rule curl follows when a redirect leaves the origin
/// (CVE-2018-1000007, CVE-2022-27774, CVE-2022-27776).
///
/// On every request to an untrusted origin it drops the `-H` headers and any
/// `user:password@` in the URL, and refuses to send a request that carries a
/// filled-in form or a replayed body (`HTTPError.untrustedOrigin`). The
/// plain-http check of `SecurityPolicy` runs before this one, so an http
/// hop to a remote host is exit 5 first.
package final class OriginPolicy: RequestAdapter {
    private(set) var trusted: Set<String> = []
    /// The user's `-H` headers, exactly as `HTTPClient` adds them.
    let userHeaders: [HTTPHeader]
    let trace: Trace

    package init(trusting urls: [String], userHeaders: [HTTPHeader], trace: Trace) {
        self.userHeaders = userHeaders
        self.trace = trace
        trust(urls)
    }

    /// Adds the origin of each URL (an origin such as `https://a.example`
    /// is a URL too); text with no http(s) origin is skipped.
    package func trust(_ urls: [String]) {
        for url in urls {
            if let origin = URIReference(url)?.origin { trusted.insert(origin) }
        }
    }

    package func adapt(_ request: inout HTTPRequest) throws(HTTPError) {
        guard let reference = URIReference(request.url), let origin = reference.origin, !trusted.contains(origin) else { return }
        if let credential = request.credential {
            throw .untrustedOrigin(credential, origin: origin, url: reference.withoutQuery)
        }
        let before = request.headers.count
        request.headers.removeAll { userHeaders.contains($0) }
        if request.headers.count < before {
            trace.info("not sending the \(trace.names.header) headers to \(origin): not a trusted origin")
        }
        // Cut at the last `@` byte, as URIReference reads userinfo (a
        // combining mark after `@` would hide it from a Character search).
        if let authority = reference.authority, let at = Array(authority.utf8).lastIndex(of: ASCII.at) {
            var stripped = reference
            stripped.authority = ASCII.string(Array(authority.utf8)[(at + 1)...])
            request.url = stripped.text
            trace.info("not sending the URL's user:password to \(origin): not a trusted origin")
        }
    }
}
