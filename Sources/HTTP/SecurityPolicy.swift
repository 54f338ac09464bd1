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

    package init(allowHTTP: Bool, connectTo: [ConnectTo] = [], proxy: ProxySettings = ProxySettings()) {
        self.allowHTTP = allowHTTP
        self.connectTo = connectTo
        self.proxy = proxy
    }

    package func check(_ url: String) throws(HTTPError) {
        guard let reference = URIReference(url), let scheme = reference.scheme?.lowercased() else {
            throw .notAURL(url)
        }
        guard scheme == "http" || scheme == "https" else {
            throw .unsupportedScheme(scheme, url: reference.withoutQuery)
        }
        // `http:/.//host/…` has no authority: what curl would make of it is
        // not what was checked here.
        guard let host = reference.host, !host.isEmpty else {
            throw .noHost(scheme: scheme, url: reference.withoutQuery)
        }
        guard scheme == "http" && !allowHTTP else { return }
        let place = reference.withoutQuery
        let route = proxy.choice(for: url)
        if !Loopback.isLoopback(host) {
            throw .plainHTTP(.remoteHost(route), host: host, url: place)
        }
        // libcurl takes the first CURLOPT_CONNECT_TO entry that matches.
        if let entry = connectTo.first(where: { $0.applies(host: host, port: reference.effectivePort) }),
           !Loopback.isLoopback(entry.destination(for: host)) {
            throw .plainHTTP(.connectTo(target: entry.destination(for: host)), host: host, url: place)
        }
        guard !route.isDirect else { return }
        // Only a proxy the user named reaches this far: a loopback host
        // never takes one from the environment (ProxySettings.choice).
        guard let proxyHost = route.host else {
            throw .plainHTTP(.unreadableProxy(route), host: host, url: place)
        }
        if !Loopback.isLoopback(proxyHost) {
            throw .plainHTTP(.remoteProxy(host: proxyHost, route), host: host, url: place)
        }
    }
}
