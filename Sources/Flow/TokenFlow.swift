import Core
import HTTP
import OAuth
import Walk

/// One flow and everything it owns: settings, transport and connections,
/// cookie jar, redactor and where its trace goes. Nothing is shared with
/// another flow, so a batch runs many of these at once in one process.
package final class TokenFlow {
    package let options: Options
    package let redactor: Redactor
    package let client: HTTPClient
    let console: Console
    /// Who may receive credentials; grows by the discovered endpoints.
    let origins: OriginPolicy
    /// Nothing of this flow fetches the redirect_uri (nil without one: a refresh).
    let redirectGuard: RedirectURIGuard?

    package init(options: Options, console: Console, transport: Transport) {
        self.options = options
        self.console = console
        redactor = Redactor()
        Self.rememberSecrets(of: options, in: redactor)
        let trace = Trace(enabled: options.verbosity == .verbose, redactor: redactor, console: console)
        client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: options.headers,
                            policy: SecurityPolicy(allowHTTP: options.allowHTTP, connectTo: options.connectTo), trace: trace, now: SystemClock.now)
        origins = OriginPolicy(trusting: TrustedOrigins.given(by: options), userHeaders: options.headers, trace: trace)
        redirectGuard = URIReference(options.redirectURI).map { RedirectURIGuard(RedirectTarget($0)) }
        if let redirectGuard { client.adapters.append(redirectGuard) }
        client.adapters.append(origins)
    }

    /// The transport settings a run's flags ask for.
    package static func transportSettings(_ options: Options) -> TransportSettings {
        var settings = TransportSettings()
        settings.timeout = options.timeout
        settings.connectTimeout = options.connectTimeout
        settings.cacert = options.cacert
        settings.insecure = options.insecure
        settings.cert = options.cert
        settings.key = options.key
        settings.connectTo = options.connectTo
        return settings
    }

    /// Every secret the run knows before it starts.
    static func rememberSecrets(of options: Options, in redactor: Redactor) {
        KnownSecrets.remember(options, in: redactor)
    }

    /// The endpoints, discovered through this flow's own connection.
    package func endpoints() throws(Failure) -> ServerEndpoints {
        try ServerEndpoints.resolve(options, client: client)
    }

    /// The grant the settings ask for, at endpoints resolved before (a
    /// batch resolves them once) or now.
    package func run(at endpoints: ServerEndpoints? = nil) throws(Failure) -> FlowResult {
        let resolved: ServerEndpoints
        if let endpoints { resolved = endpoints } else { resolved = try self.endpoints() }
        origins.trust(TrustedOrigins.named(by: resolved))
        try redirectGuard?.refuseEndpoints([("authorization endpoint", resolved.authorize), ("token endpoint", resolved.token)]
                                           + options.steps.map { ("--step URL", $0.url) })
        return try AuthorizationCodeFlow(options: options, client: client).run(at: resolved)
    }
}
