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
        guard options.flow.profile.fapi2 else { return }
        func contradiction(_ other: String, _ why: String) -> UsageError {
            UsageError("'--fapi2' and \(other) contradict each other: \(why)")
        }
        if given(\.flow.request.pkce), options.flow.request.pkce != .s256 {
            throw contradiction("'--pkce \(options.flow.request.pkce.rawValue)'", "FAPI 2.0 requires PKCE with S256")
        }
        if given(\.flow.client.authMethod), !(options.flow.client.authMethod == .privateKeyJWT || options.flow.client.authMethod.usesCertificate) {
            throw contradiction("'--auth-method \(options.flow.client.authMethod.rawValue)'",
                                "FAPI 2.0 clients authenticate with private_key_jwt, tls_client_auth or self_signed_tls_client_auth")
        }
        if options.flow.client.secret != nil {
            throw contradiction(given(\.flow.client.authMethod) ? "'--client-secret'" : "'--client-secret' (without '--auth-method', client_secret_basic)",
                                "FAPI 2.0 uses no client secret: clients authenticate with private_key_jwt or mTLS")
        }
        if let algorithm = options.flow.profile.clientKeyAlg, !SigningAlgorithm.fapi2.contains(algorithm.jws) {
            throw contradiction("'--client-key-alg \(algorithm.rawValue)'", "FAPI 2.0 signs with PS256, ES256 or EdDSA only")
        }
        if options.flow.connection.transport.insecure {
            throw contradiction("'--insecure'", "FAPI 2.0 requires the server's TLS certificate to be checked")
        }
        if options.flow.connection.allowHTTP {
            throw contradiction("'--allow-http'", "FAPI 2.0 requires TLS (plain http goes only to loopback hosts, as always)")
        }
        if options.flow.server.issuer == nil {
            throw UsageError("'--fapi2' needs '\(display(\.flow.server.issuer))': the PAR endpoint comes from its metadata, and every answer must carry its iss")
        }
        if options.commandLine.clientKeyFile == nil && options.flow.connection.transport.cert == nil {
            throw UsageError("'--fapi2' needs '\(display(\.commandLine.clientKeyFile))' (private_key_jwt) or '\(display(\.flow.connection.transport.cert))' (tls_client_auth)")
        }
        options.flow.profile.par = true
        options.flow.verification.requireIss = true
        options.flow.verification.profileIDTokenAlgorithms = SigningAlgorithm.fapi2.map(\.rawValue).sorted()
        options.flow.verification.requireSignedIDToken = true
        // §5.3.2.1: sender-constrained tokens, by the certificate when there is one.
        if options.flow.connection.transport.cert == nil { options.commandLine.dpop = true }
    }

    /// The default authentication method: private_key_jwt with a client
    /// key, tls_client_auth for `--fapi2` with a certificate and no key,
    /// client_secret_basic with a secret, else none.
    func defaultAuthMethod(_ options: Options) -> ClientAuthMethod {
        if options.commandLine.clientKeyFile != nil { return .privateKeyJWT }
        if options.flow.profile.fapi2 && options.flow.connection.transport.cert != nil { return .tlsClientAuth }
        return options.flow.client.secret == nil ? .none : .clientSecretBasic
    }

    /// Keys, methods and the flags that need one another. Runs after `client`.
    func modernProfile(_ options: inout Options) throws(UsageError) {
        if let path = options.commandLine.clientKeyFile {
            options.flow.profile.clientKey = try KeyFile.load(path, flag: "--client-key", selecting: options.flow.profile.clientKeyID,
                                                              timeout: reader.timeout, warnings: &options.warnings)
        }
        // A kept key implies --dpop.
        if let path = options.commandLine.dpopKeyFile {
            options.flow.profile.dpop = .kept(try KeyFile.load(path, flag: "--dpop-key", selecting: nil, timeout: reader.timeout,
                                                               warnings: &options.warnings))
        } else if options.commandLine.dpop {
            options.flow.profile.dpop = .fresh
        }
        try clientAuthentication(options)
        try signingAlgorithms(options)
        try pushedAndSigned(options)
        try dpopRules(options)
        for field in options.flow.profile.frontParams {
            if let reason = ReservedParameter.instead(of: field.name)?.reason(field.name) {
                throw UsageError("'--front-param \(field.name)=…' is not allowed: \(reason)")
            }
        }
    }

    func clientAuthentication(_ options: Options) throws(UsageError) {
        let method = "'--auth-method \(options.flow.client.authMethod.rawValue)'"
        if options.flow.client.authMethod == .privateKeyJWT && options.flow.profile.clientKey == nil {
            throw UsageError("\(method) needs '\(display(\.commandLine.clientKeyFile))'")
        }
        if options.flow.client.authMethod.usesCertificate && options.flow.connection.transport.cert == nil {
            throw UsageError("\(method) needs '\(display(\.flow.connection.transport.cert))' (and '--key' unless the file holds it): the certificate proves the client (RFC 8705)")
        }
        if options.flow.profile.clientKeyID != nil && options.commandLine.clientKeyFile == nil {
            throw UsageError("'\(display(\.flow.profile.clientKeyID))' works with '\(display(\.commandLine.clientKeyFile))'")
        }
        if options.flow.profile.assertionAud != nil && !(options.flow.client.authMethod == .privateKeyJWT || options.flow.client.authMethod == .clientSecretJWT) {
            throw UsageError("'\(display(\.flow.profile.assertionAud))' works with private_key_jwt and client_secret_jwt (client assertions)")
        }
        if options.flow.profile.assertionAud == .issuer && options.flow.server.issuer == nil && options.flow.server.expectIss == nil {
            throw UsageError("'--assertion-aud issuer' needs the issuer: give '\(display(\.flow.server.issuer))' or '\(display(\.flow.server.expectIss))'")
        }
    }

    /// The algorithm each key signs with must fit it, and under `--fapi2`
    /// be one the profile allows (§5.4.1: PS256, ES256, EdDSA).
    func signingAlgorithms(_ options: Options) throws(UsageError) {
        if let loaded = options.flow.profile.clientKey {
            let algorithm = ClientProfile.algorithm(for: loaded.key, given: options.flow.profile.clientKeyAlg, fapi2: options.flow.profile.fapi2)
            guard loaded.key.fits(algorithm) else {
                throw UsageError("'--client-key-alg \(algorithm.rawValue)' cannot sign with the key in '\(loaded.path)' (\(loaded.key.defaultAlgorithm.rawValue) fits it)")
            }
            try fapi2Algorithm(options, algorithm, of: loaded, flag: "--client-key")
        } else if let algorithm = options.flow.profile.clientKeyAlg, algorithm.jws.keyKind != .secret || options.flow.client.authMethod != .clientSecretJWT {
            throw UsageError("'--client-key-alg \(algorithm.rawValue)' works with '\(display(\.commandLine.clientKeyFile))', or an HS algorithm with client_secret_jwt")
        }
        if let loaded = options.flow.profile.dpop?.kept {
            try fapi2Algorithm(options, ClientProfile.algorithm(for: loaded.key, given: nil, fapi2: options.flow.profile.fapi2), of: loaded, flag: "--dpop-key")
        }
    }

    func fapi2Algorithm(_ options: Options, _ algorithm: JWSAlgorithm, of loaded: LoadedKey, flag: String) throws(UsageError) {
        guard options.flow.profile.fapi2, !SigningAlgorithm.fapi2.contains(algorithm) else { return }
        throw UsageError("'--fapi2' and the key of '\(flag) \(loaded.path)' contradict each other: it signs \(algorithm.rawValue), "
                            + "and FAPI 2.0 allows PS256, ES256 or EdDSA only")
    }

    func pushedAndSigned(_ options: Options) throws(UsageError) {
        if options.flow.profile.par && options.flow.server.issuer == nil {
            throw UsageError("'--par' needs '\(display(\.flow.server.issuer))': the PAR endpoint comes from the server's metadata")
        }
        guard options.flow.profile.requestObject else { return }
        if options.flow.server.issuer == nil && options.flow.server.expectIss == nil {
            throw UsageError("'--request-object' needs the issuer, its audience: give '\(display(\.flow.server.issuer))' or '\(display(\.flow.server.expectIss))'")
        }
        if options.flow.profile.clientKey == nil && options.flow.client.secret == nil {
            throw UsageError("'--request-object' needs '\(display(\.commandLine.clientKeyFile))' (or a client secret) to sign it")
        }
    }

    func dpopRules(_ options: Options) throws(UsageError) {
        if options.flow.profile.dpopFor != nil {
            if options.flow.output.print != .header {
                throw UsageError("'\(display(\.flow.profile.dpopFor))' works with '--print header': it adds the DPoP line under the Authorization line")
            }
            if options.flow.profile.dpop == nil {
                throw UsageError("'\(display(\.flow.profile.dpopFor))' needs '--dpop' or '\(display(\.commandLine.dpopKeyFile))'")
            }
        }
        if given(\.flow.profile.dpopNonce) && options.flow.profile.dpopFor == nil && options.flow.call.request == nil {
            throw UsageError("'\(display(\.flow.profile.dpopNonce))' goes into the proof of '\(display(\.flow.profile.dpopFor))' or '\(display(\.flow.call.request))'; give one of them")
        }
        // A bound token works only with its key (RFC 9449 §6): one made
        // afresh for this run is gone when the run ends.
        if options.flow.cache.enabled && options.flow.profile.dpop == .fresh {
            throw UsageError("'--cache' with \(options.flow.profile.fapi2 && !given(\.commandLine.dpop) ? "'--fapi2' (which turns on DPoP)" : "'--dpop'") needs '\(display(\.commandLine.dpopKeyFile))': "
                                + "a DPoP-bound token is usable only with its key, and '--dpop' alone makes a new key each run")
        }
    }
}
