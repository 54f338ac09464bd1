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

    package init(options: Options, console: Console, transport: Transport) {
        self.options = options
        self.console = console
        redactor = Redactor()
        Self.rememberSecrets(of: options, in: redactor)
        let trace = Trace(enabled: options.verbosity == .verbose, redactor: redactor, console: console)
        client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: options.headers,
                            policy: SecurityPolicy(allowHTTP: options.allowHTTP), trace: trace, now: SystemClock.now)
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
    package static func rememberSecrets(of options: Options, in redactor: Redactor) {
        redactor.remember(options.clientSecret)
        redactor.remember(options.refreshToken)
        for field in options.form where Redactor.isSecretName(field.name) { redactor.remember(field.value) }
        // The TOTP seed as given, and the base32 inside an otpauth:// URI.
        redactor.remember(options.totpSecret)
        if let query = options.totpSecret?.split(separator: "?", maxSplits: 1).dropFirst().first {
            for (name, value) in FormEncoding.decode(String(query)) where name.lowercased() == "secret" { redactor.remember(value) }
        }
    }

    /// The endpoints, discovered through this flow's own connection.
    package func endpoints() throws(Failure) -> ServerEndpoints {
        try ServerEndpoints.resolve(options, client: client)
    }

    /// The grant the settings ask for, at endpoints resolved before (a
    /// batch resolves them once) or now — through the cache with `--cache`,
    /// where a hit makes no request at all (not even discovery).
    package func run(at endpoints: ServerEndpoints? = nil) throws(Failure) -> FlowResult {
        guard options.cache else { return try mint(at: endpoints) }
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
            mint: { () throws(Failure) -> MintedToken in
                guard case .token(let token) = try self.mint(at: target()) else {
                    throw Failure(.usage, "--cache needs a token to store")
                }
                return token
            },
            refresh: { (refreshToken: String) throws(Failure) -> TokenResponse in
                try RefreshFlow(options: self.options, client: self.client).run(refreshToken, at: target().token)
            })
        let token = try cache.obtain(minting)
        client.trace.info("token from \(token.source.rawValue)")
        return .token(token)
    }

    /// One token from the network: the refresh grant with
    /// `--refresh-token`, else the authorization-code flow.
    func mint(at endpoints: ServerEndpoints?) throws(Failure) -> FlowResult {
        let resolved: ServerEndpoints
        if let endpoints { resolved = endpoints } else { resolved = try self.endpoints() }
        if let refreshToken = options.refreshToken {
            let token = try RefreshFlow(options: options, client: client).run(refreshToken, at: resolved.token)
            return .token(MintedToken(response: token, receivedAt: SystemClock.now(), source: .refresh))
        }
        return try AuthorizationCodeFlow(options: options, client: client, notes: console).run(at: resolved)
    }

    func makeCache() throws(Failure) -> TokenCache {
        guard let path = options.cacheDir else {
            throw Failure.usage("no cache directory: set --cache-dir, XDG_CACHE_HOME or HOME")
        }
        let quiet = options.verbosity == .quiet
        let console = self.console
        return TokenCache(directory: try CacheDirectory(path: path), key: CacheKey.make(options), minTTL: Double(options.minTTL),
                          carriesIDToken: options.print == .execCredential, lockTimeout: options.timeout, trace: client.trace,
                          warn: { message in if !quiet { console.writeErr(message + "\n") } })
    }
}
