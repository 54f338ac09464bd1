import Core
import HTTP
import JOSE
import OAuth
import Walk
import Flow

/// Builds `Options` from the raw values through the option table, then
/// checks the rules between options, once, before any network: a mistake
/// costs no round trip, and every error names the flags involved. What the
/// rules derive (the verbosity, the keys read, the proxies, what `--fapi2`
/// implies) lands in the settings the flow reads.
struct OptionRules {
    let raw: [String: [RawOptionValue]]
    let reader: ValueReader
    let environment: [String: String]
    /// Warnings the parser found (an old option name given).
    var notices: [String] = []

    func validate() throws(UsageError) -> Options {
        var options = Options()
        options.warnings = notices
        let table = OptionTable.all
        // --timeout first, so that reading an @FILE value below is bounded by it.
        for declaration in table where declaration.appliesFirst { try apply(declaration, to: &options) }
        reader.timeout = options.flow.connection.transport.timeout
        for declaration in table where !declaration.appliesFirst { try apply(declaration, to: &options) }
        try endpoints(options)
        try fapi2(&options)
        literalSecretHints(&options)
        try client(&options)
        try modernProfile(&options)
        try lifecycle(&options)
        try request(options)
        try walk(&options)
        try passkey(&options)
        try output(&options)
        try batch(options)
        try transport(&options)
        try verification(&options)
        return options
    }

    func apply(_ declaration: OptionDeclaration, to options: inout Options) throws(UsageError) {
        guard let values = raw[declaration.long] else { return }
        let context = ValueContext(flag: "--" + declaration.long, display: declaration.display, reader: reader)
        // A repeatable option's values one at a time, so that an error
        // about one from a config file says which file and line.
        for given in declaration.repeatable ? values.map({ [$0] }) : [values] {
            do throws(UsageError) {
                try declaration.apply(&options, given, context)
            } catch {
                var failure = error
                if failure.location == nil, let source = given.last?.source { failure.location = source }
                throw failure
            }
        }
    }

    /// An option answered on its own (`OptionRole.answer`) other than
    /// `--help` and `--version`, which the parser sees first: nothing else
    /// is read or checked, so `--completion` works with any settings around.
    static func answer(_ raw: [String: [RawOptionValue]], reader: ValueReader) throws(UsageError) -> ParsedCommand? {
        let rules = OptionRules(raw: raw, reader: reader, environment: [:])
        guard rules.given(\.commandLine.completion), let declaration = OptionTable.declaration(for: \.commandLine.completion) else { return nil }
        var options = Options()
        try rules.apply(declaration, to: &options)
        return options.commandLine.completion.map { .completion($0) }
    }

    /// Switches that exclude each other: either one given in a layer
    /// (command line, environment, config file) silences the other in the
    /// layers below it.
    static let rivals = ["verbose": "quiet", "quiet": "verbose"]

    /// Whether the option that fills this setting was given at all.
    func given(_ keyPath: PartialKeyPath<Options>) -> Bool {
        OptionTable.declaration(for: keyPath).map { raw[$0.long] != nil } ?? false
    }

    /// `--client-id <id>`, for messages.
    func display(_ keyPath: PartialKeyPath<Options>) -> String {
        OptionTable.declaration(for: keyPath)?.display ?? "?"
    }

    func endpoints(_ options: Options) throws(UsageError) {
        // A refresh needs only the token endpoint.
        let needsAuthorize = options.flow.request.refreshToken == nil
        if options.flow.server.issuer == nil && ((needsAuthorize && options.flow.server.authorizeURL == nil) || options.flow.server.tokenURL == nil) {
            let missing = options.flow.server.authorizeURL == nil && needsAuthorize ? display(\.flow.server.authorizeURL) : display(\.flow.server.tokenURL)
            throw UsageError("missing '\(missing)' (or '\(display(\.flow.server.issuer))' to discover endpoints)")
        }
    }

    func client(_ options: inout Options) throws(UsageError) {
        try required(\.flow.client.id, options.flow.client.id)
        if !given(\.flow.client.authMethod) {
            options.flow.client.authMethod = defaultAuthMethod(options)
        }
        if options.flow.client.authMethod == .none && options.flow.client.secret != nil {
            throw UsageError("'--auth-method none' sends no secret, but '--client-secret' is set; drop one of them")
        }
        if options.flow.client.authMethod.usesSecret && options.flow.client.secret == nil {
            throw UsageError("'--auth-method \(options.flow.client.authMethod.rawValue)' needs '\(display(\.flow.client.secret))'")
        }
    }

    func lifecycle(_ options: inout Options) throws(UsageError) {
        options.flow.cache.enabled = options.flow.cache.enabled || options.flow.cache.forget
        if given(\.flow.cache.minTTL) && !options.flow.cache.enabled {
            throw UsageError("'\(display(\.flow.cache.minTTL))' works with '--cache'")
        }
        if options.flow.cache.enabled && options.flow.cache.directory == nil {
            options.flow.cache.directory = CacheDirectory.defaultPath(environment: environment)
        }
        // --proxy and --noproxy win over the environment's proxies, read as
        // curl reads them (HTTP/ProxySettings.swift).
        options.flow.connection.transport.proxy = ProxySettings(explicitProxy: options.commandLine.proxyURL, explicitNoProxy: options.commandLine.noProxy,
                                                           environment: environment)
        // OpenSSL's certificate variables, for the trust store when --cacert
        // is not given (HTTP/TrustSource.swift).
        options.flow.connection.transport.certificateVariables = TrustSource.variables(in: environment)
    }

    func request(_ options: Options) throws(UsageError) {
        if options.flow.request.refreshToken == nil {
            try required(\.flow.client.redirectURI, options.flow.client.redirectURI)
        }
        for (name, fields) in [("param", options.flow.request.params), ("form", options.flow.walk.form)] {
            for field in fields {
                if let reason = ReservedParameter.instead(of: field.name)?.reason(field.name) {
                    throw UsageError("'--\(name) \(field.name)=…' is not allowed: \(reason)")
                }
            }
        }
    }

    func walk(_ options: inout Options) throws(UsageError) {
        if options.flow.walk.totpField != nil && options.flow.walk.totpSecret == nil {
            throw UsageError("'\(display(\.flow.walk.totpField))' needs '\(display(\.flow.walk.totpSecret))'")
        }
    }

    func output(_ options: inout Options) throws(UsageError) {
        if options.commandLine.verbose && options.commandLine.quiet {
            throw UsageError("'--verbose' and '--quiet' cannot be used together")
        }
        options.flow.output.verbosity = options.commandLine.verbose ? .verbose : options.commandLine.quiet ? .quiet : .normal
        if options.flow.request.refreshToken != nil && options.flow.output.print == .code {
            throw UsageError("'--print code' stops before the token request; '--refresh-token' has no code to print")
        }
        if options.commandLine.outputFile != nil && options.flow.cache.forget {
            throw UsageError("'--forget' prints nothing, so '\(display(\.commandLine.outputFile))' has nothing to write; drop one of them")
        }
        if options.flow.cache.enabled && options.flow.output.print == .code {
            throw UsageError("'--print code' redeems nothing, so there is nothing to cache; drop '--cache'")
        }
        // No openid, no id_token (OIDC Core §3.1.2.1): minting a token only
        // to find no claims in it would waste a login (issue 31 item 5).
        if options.flow.output.print == .claims, options.flow.request.refreshToken == nil, !options.flow.request.asksForOpenID {
            throw UsageError("'--print claims' prints the id_token's claims, and without openid in '\(display(\.flow.request.scope))' the server issues no id_token",
                             hint: "Add openid to \(OptionTable.flag(\.flow.request.scope)), e.g. \(OptionTable.flag(\.flow.request.scope)) \"openid \(options.flow.request.scope ?? "profile")\".")
        }
        if options.flow.call.request != nil {
            // What --call prints is the resource's answer, not the token.
            if given(\.flow.output.print) {
                throw UsageError("'\(display(\.flow.call.request))' prints the resource server's answer, so '--print' has nothing to choose; drop one of them")
            }
            if options.flow.cache.forget {
                throw UsageError("'--forget' mints no token, so '\(display(\.flow.call.request))' has none to call with; drop one of them")
            }
        }
    }

    func batch(_ options: Options) throws(UsageError) {
        if options.batch.input == "" {
            throw UsageError("'--users' is empty: name a file, or - for standard input")
        }
        guard options.batch.input != nil else {
            for keyPath: PartialKeyPath<Options> in [\.batch.parallel, \.batch.shard] where given(keyPath) {
                throw UsageError("'\(display(keyPath))' works with '\(display(\.batch.input))'")
            }
            return
        }
        for (keyPath, name) in [(\Options.flow.request.refreshToken as PartialKeyPath<Options>, "refresh-token"), (\.flow.cache.enabled, "cache"), (\.flow.cache.forget, "forget")]
            where given(keyPath) {
            throw UsageError("'--\(name)' cannot be used with '--users': each record is its own login")
        }
        if options.batch.input == "-", raw.values.joined().contains(where: { $0.text == "@-" || $0.text.hasSuffix("=@-") }) {
            throw UsageError("'--users -' reads standard input, so no other value can be '@-'")
        }
    }

    func transport(_ options: inout Options) throws(UsageError) {
        if options.flow.connection.transport.key != nil && options.flow.connection.transport.cert == nil {
            throw UsageError("'\(display(\.flow.connection.transport.key))' needs '\(display(\.flow.connection.transport.cert))'")
        }
        if options.flow.connection.transport.insecure {
            options.warnings.append("authcode: warning: --insecure: TLS certificates are not verified")
        }
    }

    func verification(_ options: inout Options) throws(UsageError) {
        if options.flow.output.print == .userinfo { options.flow.verification.userinfo = true }
        if options.flow.verification.userinfo {
            if options.flow.output.print == .code {
                throw UsageError("'\(display(\.flow.verification.userinfo))' asks the userinfo endpoint after the token; '--print code' stops before the token request")
            }
            if options.flow.server.issuer == nil {
                throw UsageError("'\(display(\.flow.verification.userinfo))' needs '\(display(\.flow.server.issuer))': the userinfo endpoint comes from the issuer's metadata")
            }
            if options.flow.request.refreshToken == nil, !(options.flow.request.scope ?? "").split(separator: " ").contains("openid") {
                throw UsageError("'\(display(\.flow.verification.userinfo))' needs 'openid' in '\(display(\.flow.request.scope))': its sub is checked against the id_token's (OIDC Core §5.3.2)")
            }
        }
        if let keyed = options.flow.verification.idTokenAlgs?.first(where: { $0.keyKind == .secret }), options.flow.client.secret == nil {
            throw UsageError("'--id-token-alg \(keyed.rawValue)' is keyed with the client secret; give '\(display(\.flow.client.secret))'")
        }
        // OIDC Core §3.1.2.1: max_age is a number of seconds; the id_token's
        // auth_time is checked against it.
        if let maxAge = options.flow.request.params.last(where: { $0.name == "max_age" }),
           maxAge.value.isEmpty || maxAge.value.utf8.count > 10 || !maxAge.value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            throw UsageError("'--param max_age=…' must be a whole number of seconds (OIDC Core §3.1.2.1)")
        }
    }

    /// A required value: absent is "missing '--client-id <id>'"; given
    /// empty (`--client-id ""`, an empty variable) says so, since the user
    /// did type the flag.
    func required(_ keyPath: PartialKeyPath<Options>, _ value: String) throws(UsageError) {
        guard value.isEmpty else { return }
        if given(keyPath), let declaration = OptionTable.declaration(for: keyPath) {
            let source = raw[declaration.long]?.last?.fromCommandLine == false ? declaration.environmentName : "--" + declaration.long
            throw UsageError("'\(source)' is empty; it needs a value")
        }
        throw UsageError("missing '\(display(keyPath))'")
    }
}
