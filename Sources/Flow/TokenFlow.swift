import Core
import HTTP
import OAuth
import Walk

/// One flow and everything it owns: settings, transport and connections,
/// cookie jar, redactor, clock and where its trace goes. Nothing is shared
/// with another flow, so a batch runs many of these at once in one process.
package final class TokenFlow {
    /// Every slice; each component below gets only those it reads.
    package let settings: FlowSettings
    /// The `--form` values this flow fills in: the settings' own, or a batch
    /// record's fields over them. The settings stay as validated.
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
    /// The warnings already written by a flow of this batch: each is said
    /// once per run, not once per record (BatchRunner.swift).
    package var warningsSaid: Lock<Set<String>>?
    /// The CLI's words: option names for the trace and notes, error
    /// messages where a trace line or warning quotes one.
    let wording: any FlowWording
    /// The endpoints once known (Self.target()).
    var resolved: ServerEndpoints?
    /// With `--cache`, the cache the token came from: `--call` writes a
    /// refreshed token and the resource servers' DPoP nonces back to it.
    var tokenCache: TokenCache?

    package init(settings: FlowSettings, console: Console, transport: Transport, wording: any FlowWording, form: [NameValue]? = nil,
                 now: @escaping @Sendable () -> Double = SystemClock.now) {
        self.settings = settings
        self.form = form ?? settings.walk.form
        self.now = now
        self.console = console
        self.wording = wording
        redactor = Redactor()
        Self.rememberSecrets(of: settings, in: redactor)
        for field in self.form { redactor.remember(field.value) }
        let trace = Trace(enabled: settings.output.verbosity == .verbose, redactor: redactor, console: console, names: wording.names)
        client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: settings.connection.headers,
                            policy: settings.connection.policy, trace: trace, now: now)
        origins = OriginPolicy(trusting: TrustedOrigins.given(by: settings.server, walk: settings.walk), userHeaders: settings.connection.headers,
                               trace: trace)
        redirectGuard = URIReference(settings.client.redirectURI).map { RedirectURIGuard(RedirectTarget($0)) }
        if let redirectGuard { client.adapters.append(redirectGuard) }
        client.adapters.append(origins)
        profile = ClientProfile(client: settings.client, profile: settings.profile, issuer: settings.server.expectedIssuer, redactor: redactor, now: now)
        profile.warn = { [weak self] message in self?.warn(message) }
    }

    /// A warning the user must act on (README "Output and exit codes"): on stderr unless `-q`,
    /// and in a batch once, not once per record.
    func warn(_ message: String) {
        guard settings.output.verbosity != .quiet else { return }
        if let said = warningsSaid, !said.withLock({ $0.insert(message).inserted }) { return }
        console.writeErr(message + "\n")
    }

    /// A flow over a transport made for its connection settings (one per
    /// flow: its own connections).
    package convenience init(settings: FlowSettings, console: Console, makeTransport: TransportFactory, wording: any FlowWording,
                             form: [NameValue]? = nil, now: @escaping @Sendable () -> Double = SystemClock.now) throws(FlowError) {
        let transport: any Transport
        do {
            transport = try makeTransport(settings.connection.transport)
        } catch {
            throw .http(error)
        }
        self.init(settings: settings, console: console, transport: transport, wording: wording, form: form, now: now)
    }

    /// Every secret the run knows before it starts.
    package static func rememberSecrets(of settings: FlowSettings, in redactor: Redactor) {
        KnownSecrets.remember(settings, in: redactor)
    }

    /// The endpoints, discovered through this flow's own connection, with
    /// the keys that verify the server's signatures.
    package func endpoints() throws(FlowError) -> ServerEndpoints {
        var endpoints = try ServerEndpoints.resolve(settings.server, request: settings.request, profile: settings.profile,
                                                    presentsCertificate: settings.connection.transport.cert != nil, client: client)
        endpoints.keys = try KeyStore.make(settings.verification.jwks, metadata: endpoints.metadata, cache: settings.cache, wording: wording)
        return endpoints
    }

    /// The grant the settings ask for, at endpoints resolved before (a
    /// batch resolves them once) or now — through the cache with `--cache`,
    /// where a hit makes no request at all (not even discovery).
    package func run(at endpoints: ServerEndpoints? = nil) throws(FlowError) -> FlowResult {
        resolved = endpoints
        try refuseCallBeforeAnyRequest()
        let result = try withCall(try withResourceProof(try obtain()))
        warnOfUncheckedClaims(result)
        return result
    }

    /// `--print claims` prints "the verified id_token's payload": when no
    /// keys could check its signature (the TLS connection to the token
    /// endpoint stood in for it, OIDC Core §3.1.3.7 item 6), one line says
    /// so (issue 31 item 9). A cache hit resolved no keys and says nothing:
    /// its entry was stored under these same settings.
    func warnOfUncheckedClaims(_ result: FlowResult) {
        guard settings.output.print == .claims, settings.output.verbosity != .quiet, case .token(let token) = result, token.response.idToken != nil,
              let keys = resolved?.keys, IDTokenCheck.signatureUnchecked(keys: keys, rules: settings.verification) else { return }
        console.writeErr("authcode: warning: the id_token's signature was not checked: no keys are known (give \(wording.names.issuer) with a jwks_uri, "
                         + "or \(wording.names.jwks)); these claims are as the token endpoint sent them\n")
    }

    /// The endpoints: those the run was given or resolved before, else
    /// resolved now (a cache hit never needs them).
    func target() throws(FlowError) -> ServerEndpoints {
        if let resolved { return resolved }
        let fresh = try self.endpoints()
        resolved = fresh
        return fresh
    }

    func obtain() throws(FlowError) -> FlowResult {
        guard settings.cache.enabled else {
            let resolved = try target()
            return try withUserInfo(mint(at: resolved), at: { () throws(FlowError) -> ServerEndpoints in resolved })
        }
        let cache = try makeCache()
        if settings.cache.forget {
            try cache.forget()
            return .forgotten
        }
        tokenCache = cache
        let minting = TokenCache.Minting(
            mint: { (stored: TokenResponse?) throws(FlowError) -> MintedToken in
                guard case .token(let token) = try self.mint(at: self.target(), stored: stored) else {
                    throw .nothingToCache
                }
                return token
            },
            refresh: { (refreshToken: String, stale: TokenResponse) throws(FlowError) -> TokenResponse in
                try self.refreshFlow().run(refreshToken, at: self.target(), stored: stale)
            })
        let token = try cache.obtain(minting)
        client.trace.info("token from \(token.source.rawValue)")
        return try withUserInfo(.token(token), at: target)
    }

    /// `--userinfo`: the userinfo answer for the token, whether it is new,
    /// refreshed or the cache's (Verification/UserInfoFetch.swift).
    func withUserInfo(_ result: FlowResult, at endpoints: () throws(FlowError) -> ServerEndpoints) throws(FlowError) -> FlowResult {
        guard settings.verification.userinfo, case .token(var token) = result else { return result }
        token.userinfo = try UserInfoFetch(server: settings.server, verification: settings.verification, client: client, endpoints: endpoints(),
                                           now: now, profile: profile).fetch(for: token)
        return .token(token)
    }

    /// One token from the network: the refresh grant with
    /// `--refresh-token`, else the authorization-code flow.
    /// - Parameter stored: with `--cache`, the entry's answer, whose
    ///   id_token a refreshed one must keep the identity of.
    func mint(at endpoints: ServerEndpoints?, stored: TokenResponse? = nil) throws(FlowError) -> FlowResult {
        let resolved: ServerEndpoints
        if let endpoints { resolved = endpoints } else { resolved = try self.endpoints() }
        origins.trust(TrustedOrigins.named(by: resolved))
        do {
            try redirectGuard?.refuseEndpoints([(.authorization, resolved.authorize), (.token, resolved.token), (.pushedAuthorization, resolved.par)]
                                               + settings.walk.steps.map { (.step, $0.url) })
        } catch {
            throw .walk(error)
        }
        if let refreshToken = settings.request.refreshToken {
            let token = try refreshFlow().run(refreshToken, at: resolved, stored: stored)
            return .token(MintedToken(response: token, receivedAt: now(), source: .refresh))
        }
        return try AuthorizationCodeFlow(settings: settings, form: form, client: client, wording: wording, notes: console,
                                         now: now, profile: profile).run(at: resolved)
    }

    func refreshFlow() -> RefreshFlow {
        RefreshFlow(server: settings.server, request: settings.request, verification: settings.verification, client: client, now: now, profile: profile)
    }

    func makeCache() throws(FlowError) -> TokenCache {
        guard let path = settings.cache.directory else {
            throw .noCacheDirectory
        }
        let quiet = settings.output.verbosity == .quiet
        let console = self.console
        let directory: CacheDirectory
        let key: String
        do {
            directory = try CacheDirectory(path: path)
            key = try CacheKey.make(settings, salt: CacheSalt.load(in: directory))
        } catch {
            throw .cache(error)
        }
        return TokenCache(directory: directory, key: key, minTTL: Double(settings.cache.minTTL),
                          carriesIDToken: settings.output.print == .execCredential, lockTimeout: settings.connection.transport.timeout,
                          trace: client.trace, now: now, wording: wording,
                          warn: { message in if !quiet { console.writeErr(message + "\n") } })
    }
}
