import Core

/// Where secrets may travel: never over plain http to a host that is not this
/// machine, unless the user says `--allow-http` (ARCHITECTURE.md "Security rules"). Checked
/// before every request, so a redirect from https down to http is refused too.
/// Every hop of the connection counts: the URL's host, the `--connect-to`
/// target that applies, and the proxy (ProxySettings.swift); each must be
/// loopback by its spelling (Loopback.swift).
package struct SecurityPolicy: Sendable {
    var allowHTTP: Bool
    /// `--connect-to` entries: plain http is only for a connection that stays
    /// on this machine, so the host really connected to must be loopback
    /// too, and no entry turns a name into "loopback". Each was read by the
    /// one parser libcurl's reading follows (ConnectTo.swift), so none is
    /// unknown here.
    var connectTo: [ConnectTo]
    /// The proxies of the run; the transport asks the same settings, so the
    /// proxy checked here is the one libcurl is given.
    package let proxy: ProxySettings

    static let hint = "Use https, or pass --allow-http if this network is trusted."

    package init(allowHTTP: Bool, connectTo: [ConnectTo] = [], proxy: ProxySettings = ProxySettings()) {
        self.allowHTTP = allowHTTP
        self.connectTo = connectTo
        self.proxy = proxy
    }

    func check(_ url: String) throws(Failure) {
        guard let reference = URIReference(url), let scheme = reference.scheme?.lowercased() else {
            throw Failure(.noAuthorizationResponse, "not a URL authcode can fetch", at: ServerText.printable(url))
        }
        guard scheme == "http" || scheme == "https" else {
            throw Failure(.noAuthorizationResponse, "cannot follow a '\(scheme):' URL", at: reference.withoutQuery)
        }
        // `http:/.//host/…` has no authority: what curl would make of it is
        // not what was checked here.
        guard let host = reference.host, !host.isEmpty else {
            throw Failure(.noAuthorizationResponse, "a \(scheme) URL without a host cannot be fetched", at: ServerText.printable(reference.withoutQuery))
        }
        guard scheme == "http" && !allowHTTP else { return }
        let place = reference.withoutQuery
        let route = proxy.choice(for: url)
        if !Loopback.isLoopback(host) {
            let via = route.host.map { " through the proxy '\($0)' (\(route.source))" } ?? ""
            throw Failure(.securityCheck, "refusing plain http to '\(host)'\(via): secrets would travel unencrypted", at: place, hint: Self.hint)
        }
        // libcurl takes the first CURLOPT_CONNECT_TO entry that matches.
        if let entry = connectTo.first(where: { $0.applies(host: host, port: reference.effectivePort) }),
           !Loopback.isLoopback(entry.destination(for: host)) {
            let target = entry.destination(for: host)
            throw Failure(.securityCheck, "refusing plain http to '\(host)': --connect-to sends it to '\(target)', which is not this machine",
                          at: place, hint: Self.hint)
        }
        guard !route.isDirect else { return }
        // Only a proxy the user named reaches this far: a loopback host
        // never takes one from the environment (ProxySettings.choice).
        guard let proxyHost = route.host else {
            throw Failure(.securityCheck, "refusing plain http to '\(host)': the proxy in \(route.source) cannot be read, so where it sends the request is unknown",
                          at: place, hint: "Check the value of \(route.source).")
        }
        if !Loopback.isLoopback(proxyHost) {
            throw Failure(.securityCheck, "refusing plain http to '\(host)' through the proxy '\(proxyHost)' (\(route.source)), which is not this machine",
                          at: place, hint: Self.hint)
        }
    }
}
