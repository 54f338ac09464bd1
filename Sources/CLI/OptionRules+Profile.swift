import Core
import JOSE
import OAuth
import Flow

/// The rules between the modern client profile's options (README "Modern
/// client profile"), checked before any request.
extension OptionRules {
    /// `--fapi2`: the FAPI 2.0 Security Profile's client requirements (§5.3.3
    /// and §5.4 there). An option that contradicts it is refused naming
    /// both; then it turns on what it implies. Runs before `client`, which
    /// picks the default authentication method.
    func fapi2(_ options: inout Options) throws(UsageError) {
        guard options.fapi2 else { return }
        func contradiction(_ other: String, _ why: String) -> UsageError {
            UsageError("'--fapi2' and \(other) contradict each other: \(why)")
        }
        if given(\.pkce), options.pkce != .s256 {
            throw contradiction("'--pkce \(options.pkce.rawValue)'", "FAPI 2.0 requires PKCE with S256")
        }
        if given(\.authMethod), !(options.authMethod == .privateKeyJWT || options.authMethod.usesCertificate) {
            throw contradiction("'--auth-method \(options.authMethod.rawValue)'",
                                "FAPI 2.0 clients authenticate with private_key_jwt, tls_client_auth or self_signed_tls_client_auth")
        }
        if options.clientSecret != nil {
            throw contradiction(given(\.authMethod) ? "'--client-secret'" : "'--client-secret' (without '--auth-method', client_secret_basic)",
                                "FAPI 2.0 uses no client secret: clients authenticate with private_key_jwt or mTLS")
        }
        if let algorithm = options.clientKeyAlg, !SigningAlgorithm.fapi2.contains(algorithm.jws) {
            throw contradiction("'--client-key-alg \(algorithm.rawValue)'", "FAPI 2.0 signs with PS256, ES256 or EdDSA only")
        }
        if options.insecure {
            throw contradiction("'--insecure'", "FAPI 2.0 requires the server's TLS certificate to be checked")
        }
        if options.allowHTTP {
            throw contradiction("'--allow-http'", "FAPI 2.0 requires TLS (plain http goes only to loopback hosts, as always)")
        }
        if options.issuer == nil {
            throw UsageError("'--fapi2' needs '\(display(\.issuer))': the PAR endpoint comes from its metadata, and every answer must carry its iss")
        }
        if options.clientKeyFile == nil && options.cert == nil {
            throw UsageError("'--fapi2' needs '\(display(\.clientKeyFile))' (private_key_jwt) or '\(display(\.cert))' (tls_client_auth)")
        }
        options.par = true
        options.requireIss = true
        options.profileIDTokenAlgorithms = SigningAlgorithm.fapi2.map(\.rawValue).sorted()
        options.requireSignedIDToken = true
        // §5.3.2.1: sender-constrained tokens, by the certificate when there is one.
        if options.cert == nil { options.dpop = true }
    }

    /// The default authentication method: private_key_jwt with a client
    /// key, tls_client_auth for `--fapi2` with a certificate and no key,
    /// client_secret_basic with a secret, else none.
    func defaultAuthMethod(_ options: Options) -> ClientAuthMethod {
        if options.clientKeyFile != nil { return .privateKeyJWT }
        if options.fapi2 && options.cert != nil { return .tlsClientAuth }
        return options.clientSecret == nil ? .none : .clientSecretBasic
    }

    /// Keys, methods and the flags that need one another. Runs after `client`.
    func modernProfile(_ options: inout Options) throws(UsageError) {
        if let path = options.clientKeyFile {
            options.clientKey = try KeyFile.load(path, flag: "--client-key", selecting: options.clientKeyID, timeout: reader.timeout,
                                                 warnings: &options.warnings)
        }
        if let path = options.dpopKeyFile {
            options.dpopKey = try KeyFile.load(path, flag: "--dpop-key", selecting: nil, timeout: reader.timeout, warnings: &options.warnings)
            options.dpop = true
        }
        try clientAuthentication(options)
        try signingAlgorithms(options)
        try pushedAndSigned(options)
        try dpopRules(options)
        for field in options.frontParams {
            if let reason = ReservedParameter.instead(of: field.name)?.reason(field.name) {
                throw UsageError("'--front-param \(field.name)=…' is not allowed: \(reason)")
            }
        }
    }

    func clientAuthentication(_ options: Options) throws(UsageError) {
        let method = "'--auth-method \(options.authMethod.rawValue)'"
        if options.authMethod == .privateKeyJWT && options.clientKey == nil {
            throw UsageError("\(method) needs '\(display(\.clientKeyFile))'")
        }
        if options.authMethod.usesCertificate && options.cert == nil {
            throw UsageError("\(method) needs '\(display(\.cert))' (and '--key' unless the file holds it): the certificate proves the client (RFC 8705)")
        }
        if options.clientKeyID != nil && options.clientKeyFile == nil {
            throw UsageError("'\(display(\.clientKeyID))' works with '\(display(\.clientKeyFile))'")
        }
        if options.assertionAud != nil && !(options.authMethod == .privateKeyJWT || options.authMethod == .clientSecretJWT) {
            throw UsageError("'\(display(\.assertionAud))' works with private_key_jwt and client_secret_jwt (client assertions)")
        }
        if options.assertionAud == .issuer && options.issuer == nil && options.expectIss == nil {
            throw UsageError("'--assertion-aud issuer' needs the issuer: give '\(display(\.issuer))' or '\(display(\.expectIss))'")
        }
    }

    /// The algorithm each key signs with must fit it, and under `--fapi2`
    /// be one the profile allows (§5.4.1: PS256, ES256, EdDSA).
    func signingAlgorithms(_ options: Options) throws(UsageError) {
        if let loaded = options.clientKey {
            let algorithm = ClientProfile.algorithm(for: loaded.key, given: options.clientKeyAlg, fapi2: options.fapi2)
            guard loaded.key.fits(algorithm) else {
                throw UsageError("'--client-key-alg \(algorithm.rawValue)' cannot sign with the key in '\(loaded.path)' (\(loaded.key.defaultAlgorithm.rawValue) fits it)")
            }
            try fapi2Algorithm(options, algorithm, of: loaded, flag: "--client-key")
        } else if let algorithm = options.clientKeyAlg, algorithm.jws.keyKind != .secret || options.authMethod != .clientSecretJWT {
            throw UsageError("'--client-key-alg \(algorithm.rawValue)' works with '\(display(\.clientKeyFile))', or an HS algorithm with client_secret_jwt")
        }
        if let loaded = options.dpopKey {
            try fapi2Algorithm(options, ClientProfile.algorithm(for: loaded.key, given: nil, fapi2: options.fapi2), of: loaded, flag: "--dpop-key")
        }
    }

    func fapi2Algorithm(_ options: Options, _ algorithm: JWSAlgorithm, of loaded: LoadedKey, flag: String) throws(UsageError) {
        guard options.fapi2, !SigningAlgorithm.fapi2.contains(algorithm) else { return }
        throw UsageError("'--fapi2' and the key of '\(flag) \(loaded.path)' contradict each other: it signs \(algorithm.rawValue), "
                            + "and FAPI 2.0 allows PS256, ES256 or EdDSA only")
    }

    func pushedAndSigned(_ options: Options) throws(UsageError) {
        if options.par && options.issuer == nil {
            throw UsageError("'--par' needs '\(display(\.issuer))': the PAR endpoint comes from the server's metadata")
        }
        guard options.requestObject else { return }
        if options.issuer == nil && options.expectIss == nil {
            throw UsageError("'--request-object' needs the issuer, its audience: give '\(display(\.issuer))' or '\(display(\.expectIss))'")
        }
        if options.clientKey == nil && options.clientSecret == nil {
            throw UsageError("'--request-object' needs '\(display(\.clientKeyFile))' (or a client secret) to sign it")
        }
    }

    func dpopRules(_ options: Options) throws(UsageError) {
        if options.dpopFor != nil {
            if options.print != .header {
                throw UsageError("'\(display(\.dpopFor))' works with '--print header': it adds the DPoP line under the Authorization line")
            }
            if !options.dpop {
                throw UsageError("'\(display(\.dpopFor))' needs '--dpop' or '\(display(\.dpopKeyFile))'")
            }
        }
        // A bound token works only with its key (RFC 9449 §6): one made
        // afresh for this run is gone when the run ends.
        if options.cache && options.dpop && options.dpopKey == nil {
            throw UsageError("'--cache' with \(options.fapi2 && !given(\.dpop) ? "'--fapi2' (which turns on DPoP)" : "'--dpop'") needs '\(display(\.dpopKeyFile))': "
                                + "a DPoP-bound token is usable only with its key, and '--dpop' alone makes a new key each run")
        }
    }
}
