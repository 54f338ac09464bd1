/// Every way a request fails before or while it is sent, as a value: what
/// the plain-http policy (SecurityPolicy.swift), the trusted origins
/// (OriginPolicy.swift) and the redirect_uri guard refuse, and what the
/// transport (Curl/CurlTransport.swift) reports. No sentence and no exit
/// code here: the CLI words each case and picks its exit code
/// (CLI/Errors/ErrorReport.swift). URLs are carried without their query,
/// as the error line shows them.
package enum HTTPError: Error, Equatable, Sendable {
    // What can be fetched at all (SecurityPolicy.check).
    /// Not a URL: the text as it was given.
    case notAURL(String)
    /// A scheme other than http and https (lower case), and the URL.
    case unsupportedScheme(String, url: String)
    /// An http(s) URL without a host.
    case noHost(scheme: String, url: String)

    // Plain http (SecurityPolicy.check), to `host` of `url`.
    case plainHTTP(PlainHTTPRoute, host: String, url: String)

    // Credentials (OriginPolicy.adapt).
    /// A request carrying the user's credentials to an origin nobody trusted.
    case untrustedOrigin(CarriedCredential, origin: String, url: String)

    // The redirect_uri (Walk/RedirectURIGuard.swift, an adapter).
    /// A request aimed at the flow's redirect_uri, which nothing fetches.
    case redirectURI(url: String)

    // The transport.
    /// libcurl could not start: its reason, when it gave one.
    case transportSetUp(reason: String?)
    /// libcurl could not share TLS sessions between a batch's flows.
    case sessionShare(reason: String)
    /// libcurl refused an option or an info: its version, the option, its reason.
    case optionRefused(option: String, version: String, reason: String)
    /// libcurl could not allocate a list entry.
    case outOfMemory
    /// A body over the limit, in MiB.
    case bodyTooLarge(limitMiB: Int, url: String)
    /// A header section RFC 9112 §5 does not allow (Curl/CurlExchange.swift).
    case malformedHeaders(url: String)
    /// The store of certificates that verifies servers cannot be made
    /// (Curl/TrustStore.swift): libcurl's or OpenSSL's reason.
    case trustStoreUnusable(TrustStoreName, reason: String, url: String)
    /// DNS, connect, TLS, timeout: libcurl's words, and what the CLI may
    /// suspect (a proxy, a plain-http port, a client certificate, a CA
    /// missing from the store).
    case network(NetworkFailure, detail: String, url: String, suspect: NetworkSuspect?)
}

/// Why plain http to a host that is not this machine was refused.
package enum PlainHTTPRoute: Equatable, Sendable {
    /// The host itself is not loopback; the proxy the request would take, if any.
    case remoteHost(ProxyChoice)
    /// A `--connect-to` entry sends the request to this host, not loopback.
    case connectTo(target: String)
    /// The proxy's value cannot be read, so where it connects is unknown.
    case unreadableProxy(ProxyChoice)
    /// The proxy is another machine.
    case remoteProxy(host: String, ProxyChoice)
}

/// What kind of network failure libcurl reported.
package enum NetworkFailure: Equatable, Sendable {
    case timedOut
    /// Verification, handshake, certificate or CA file.
    case tls
    case other
}

/// What probably caused a network failure, for the hint.
package enum NetworkSuspect: Equatable, Sendable {
    /// The request went through this proxy, which failed.
    case proxy(ProxyChoice)
    /// The port answered in plain http, not TLS: the `http://` URL to try.
    case plainHTTPPort(String)
    /// The server dropped the TLS connection, and no client certificate was given.
    case clientCertificate
    /// No CA of this store issued the server's chain.
    case untrustedCertificate(TrustStoreName)
}
