import Core

/// Every request of a run goes through here, so that each one gets the same
/// treatment: the plain-http policy before any byte is sent, the user's `-H`
/// headers, cookies from the jar, the adapters, the trace, and cookies
/// stored from the answer. There is no other way to the transport: a
/// request sent again (a DPoP nonce, say) is a second call of `send`, and
/// passes every guard again.
package final class HTTPClient {
    let transport: Transport
    let cookies: CookieJar
    let extraHeaders: [HTTPHeader]
    package let policy: SecurityPolicy
    package let trace: Trace
    let now: () -> Double
    /// Run in order on every request (RequestAdapter.swift).
    package var adapters: [RequestAdapter] = []
    /// `-v` says which trust store verifies servers once, at the first https request.
    private var trustNoted = false

    package init(transport: Transport, cookies: CookieJar, extraHeaders: [HTTPHeader], policy: SecurityPolicy, trace: Trace, now: @escaping () -> Double) {
        self.transport = transport
        self.cookies = cookies
        self.extraHeaders = extraHeaders
        self.policy = policy
        self.trace = trace
        self.now = now
    }

    /// The Cookie header the jar would send with this request.
    package func cookieHeader(for url: String) -> String? {
        guard let reference = URIReference(url), let scheme = reference.scheme, let host = reference.host else { return nil }
        return cookies.header(scheme: scheme.lowercased(), host: host, path: reference.path.isEmpty ? "/" : reference.path, now: now())
    }

    /// - Parameter useCookies: false for the token endpoint, which is a
    ///   back-channel call a browser would never make.
    package func send(_ request: HTTPRequest, purpose: String, useCookies: Bool = true) throws(HTTPError) -> HTTPResponse {
        try policy.check(request.url)
        var outgoing = request
        // The user's headers win over ours of the same name (an Accept, say).
        let overridden = Set(extraHeaders.map { $0.name.lowercased() })
        outgoing.headers.removeAll { overridden.contains($0.name.lowercased()) }
        outgoing.headers.append(contentsOf: extraHeaders)
        if useCookies, let cookie = cookieHeader(for: request.url) {
            outgoing.headers.append(HTTPHeader("Cookie", cookie))
        }
        for adapter in adapters { try adapter.adapt(&outgoing) }
        trace.request(outgoing, purpose: purpose)
        let route = policy.proxy.choice(for: outgoing.url)
        if !route.isDirect { trace.info("through the proxy \(route.shown) (\(trace.names.name(of: route.source)))") }
        if !trustNoted, URIReference(outgoing.url)?.scheme?.lowercased() == "https" {
            trustNoted = true
            if let note = transport.trustNote { trace.info(note.line(trace.names)) }
        }
        let response = try transport.send(outgoing)
        trace.response(response)
        let setCookies = response.headers.all(named: "Set-Cookie")
        trace.redactor.remember(setCookies: setCookies)
        if useCookies, !setCookies.isEmpty, let reference = URIReference(request.url), let scheme = reference.scheme, let host = reference.host {
            cookies.store(setCookies, scheme: scheme.lowercased(), host: host, path: reference.path.isEmpty ? "/" : reference.path, now: now())
            trace.info("cookies now: \(cookies.names.joined(separator: ", "))")
        }
        return response
    }
}
