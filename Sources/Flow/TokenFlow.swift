import Core
import HTTP
import OAuth
import Walk

/// One flow and everything it owns: settings, transport and connections,
/// cookie jar, redactor, clock and where its trace goes. Nothing is shared
/// with another flow, so a batch runs many of these at once in one process.
package final class TokenFlow {
    package let options: Options
    /// The `--form` values this flow fills in: the options' own, or a batch
    /// record's fields over them. The options stay as validated.
    let form: [NameValue]
    /// Seconds since 1970: the system's clock, or a test's.
    let now: @Sendable () -> Double
    package let redactor: Redactor
    package let client: HTTPClient
    let console: Console
    /// Who may receive credentials; grows by the discovered endpoints.
    let origins: OriginPolicy
    /// Nothing of this flow fetches the redirect_uri (nil without one: a refresh).
    let redirectGuard: RedirectURIGuard?
    /// The flow's assertions, request objects and DPoP proofs.
    package let profile: ClientProfile
    /// A batch's flows share it: the fallback note comes once per batch
    /// (MethodFallback.swift).
    package var fallbackNoted: Lock<Bool>?

    package init(options: Options, console: Console, transport: Transport, form: [NameValue]? = nil,
                 now: @escaping @Sendable () -> Double = SystemClock.now) {
        self.options = options
        self.form = form ?? options.form
        self.now = now
        self.console = console
        redactor = Redactor()
        Self.rememberSecrets(of: options, in: redactor)
        for field in self.form { redactor.remember(field.value) }
        let trace = Trace(enabled: options.verbosity == .verbose, redactor: redactor, console: console)
        client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: options.headers,
                            policy: SecurityPolicy(allowHTTP: options.allowHTTP, connectTo: options.connectTo, proxy: options.proxy), trace: trace, now: now)
        origins = OriginPolicy(trusting: TrustedOrigins.given(by: options), userHeaders: options.headers, trace: trace)
        redirectGuard = URIReference(options.redirectURI).map { RedirectURIGuard(RedirectTarget($0)) }
        if let redirectGuard { client.adapters.append(redirectGuard) }
        client.adapters.append(origins)
        profile = ClientProfile(options: options, redactor: redactor, now: now)
    }

    /// A flow over a transport made for its settings (one per flow: its
    /// own connections).
    package convenience init(options: Options, console: Console, makeTransport: TransportFactory, form: [NameValue]? = nil,
                             now: @escaping @Sendable () -> Double = SystemClock.now) throws(Failure) {
        self.init(options: options, console: console, transport: try makeTransport(Self.transportSettings(options)), form: form, now: now)
    }

    /// The transport settings a run's flags ask for.
    package static func transportSettings(_ options: Options) -> TransportSettings {
        var settings = TransportSettings()
        settings.timeout = options.timeout
        settings.connectTimeout = options.connectTimeout
        settings.trust = options.trust
        settings.insecure = options.insecure
        settings.cert = options.cert
        settings.key = options.key
        settings.connectTo = options.connectTo
        settings.proxy = options.proxy
        return settings
    }

    /// Every secret the run knows before it starts.
    package static func rememberSecrets(of options: Options, in redactor: Redactor) {
        KnownSecrets.remember(options, in: redactor)
    }

    /// The endpoints, discovered through this flow's own connection.
    package func endpoints() throws(Failure) -> ServerEndpoints {
        try ServerEndpoints.resolve(options, client: client)
    }

    /// The grant the settings ask for, at endpoints resolved before (a
    /// batch resolves them once) or now — through the cache with `--cache`,
    /// where a hit makes no request at all (not even discovery).
    package func run(at endpoints: ServerEndpoints? = nil) throws(Failure) -> FlowResult {
        try withResourceProof(try obtain(at: endpoints))
    }

    func obtain(at endpoints: ServerEndpoints?) throws(Failure) -> FlowResult {
        guard options.cache else {
            let resolved: ServerEndpoints
            if let endpoints { resolved = endpoints } else { resolved = try self.endpoints() }
            return try withUserInfo(mint(at: resolved), at: { () throws(Failure) -> ServerEndpoints in resolved })
        }
        let cache = try makeCache()
        if options.forget {
            try cache.forget()
            return .forgotten
        }
        var resolved = endpoints
        func target() throws(Failure) -> ServerEndpoints {
            if let resolved { return resolved }
            let fresh = try self.endpoints()
            resolved = fresh
            return fresh
        }
        let minting = TokenCache.Minting(
            mint: { (stored: TokenResponse?) throws(Failure) -> MintedToken in
                guard case .token(let token) = try self.mint(at: target(), stored: stored) else {
                    throw Failure(.usage, "--cache needs a token to store")
                }
                return token
            },
            refresh: { (refreshToken: String, stale: TokenResponse) throws(Failure) -> TokenResponse in
                try RefreshFlow(options: self.options, client: self.client, now: self.now, profile: self.profile)
                    .run(refreshToken, at: target(), stored: stale)
            })
        let token = try cache.obtain(minting)
        client.trace.info("token from \(token.source.rawValue)")
        return try withUserInfo(.token(token), at: target)
    }

    /// `--userinfo`: the userinfo answer for the token, whether it is new,
    /// refreshed or the cache's (Verification/UserInfoFetch.swift).
    func withUserInfo(_ result: FlowResult, at endpoints: () throws(Failure) -> ServerEndpoints) throws(Failure) -> FlowResult {
        guard options.userinfo, case .token(var token) = result else { return result }
        token.userinfo = try UserInfoFetch(options: options, client: client, endpoints: endpoints(), now: now, profile: profile).fetch(for: token)
        return .token(token)
    }

    /// One token from the network: the refresh grant with
    /// `--refresh-token`, else the authorization-code flow.
    /// - Parameter stored: with `--cache`, the entry's answer, whose
    ///   id_token a refreshed one must keep the identity of.
    func mint(at endpoints: ServerEndpoints?, stored: TokenResponse? = nil) throws(Failure) -> FlowResult {
        let resolved: ServerEndpoints
        if let endpoints { resolved = endpoints } else { resolved = try self.endpoints() }
        origins.trust(TrustedOrigins.named(by: resolved))
        try redirectGuard?.refuseEndpoints([("authorization endpoint", resolved.authorize), ("token endpoint", resolved.token),
                                            ("pushed authorization request endpoint", resolved.par)]
                                           + options.steps.map { ("--step URL", $0.url) })
        if let refreshToken = options.refreshToken {
            let token = try RefreshFlow(options: options, client: client, now: now, profile: profile).run(refreshToken, at: resolved, stored: stored)
            return .token(MintedToken(response: token, receivedAt: now(), source: .refresh))
        }
        return try AuthorizationCodeFlow(options: options, form: form, client: client, notes: console, fallbackNoted: fallbackNoted, now: now,
                                         profile: profile).run(at: resolved)
    }

    func makeCache() throws(Failure) -> TokenCache {
        guard let path = options.cacheDir else {
            throw Failure.usage("no cache directory: set --cache-dir, XDG_CACHE_HOME or HOME")
        }
        let quiet = options.verbosity == .quiet
        let console = self.console
        let directory = try CacheDirectory(path: path)
        let key = try CacheKey.make(options, salt: CacheSalt.load(in: directory))
        return TokenCache(directory: directory, key: key, minTTL: Double(options.minTTL),
                          carriesIDToken: options.print == .execCredential, lockTimeout: options.timeout, trace: client.trace, now: now,
                          warn: { message in if !quiet { console.writeErr(message + "\n") } })
    }
}
