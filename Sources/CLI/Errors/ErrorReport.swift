import Core
import HTTP
import JOSE
import OAuth
import Walk
import Flow

/// An error as the user sees it: exit code, the `authcode: error: <what>
/// (<where>)` line and the hint. The one place that decides, for every case
/// of every layer's error, which exit code it ends the run with and what
/// the hint says (README.md "Exit codes"); the words of each layer's cases
/// are in the files beside this one (`HTTPError+Text.swift`, …). Hints
/// name options through the option table (OptionTable.swift).
struct ErrorReport: Equatable {
    var exitCode: ExitCode
    /// `<what>`, server text still marked.
    var message: String
    var location: String?
    var hint: String?

    init(_ error: CLIError) {
        switch error {
        case .usage(let error):
            self.init(.usage, ErrorText(error.message, at: error.location), hint: error.hint)
        case .flow(let error):
            self.init(error)
        case .unprintable(let error):
            self.init(.malformedResponse, error.text, hint: nil)
        case .unwritten(let failure):
            self.init(.outputFailed, failure.text, hint: nil)
        }
    }

    init(_ error: FlowError) {
        let (exitCode, hint) = Self.verdict(error)
        self.init(exitCode, error.text, hint: hint)
    }

    /// A passkey refusal met outside a walk (the file checked before any request).
    init(_ error: WebAuthnError, at place: String? = nil) {
        let (exitCode, hint) = Self.verdict(error)
        self.init(exitCode, error.text(at: place), hint: hint)
    }

    init(_ exitCode: ExitCode, _ text: ErrorText, hint: String?) {
        self.exitCode = exitCode
        message = text.message
        location = text.location
        self.hint = hint
    }

    /// The error line with server text still marked, not yet bounded: the
    /// run's redactor scrubs it, then finishes it (`Redactor.finished`).
    var markedLine: String {
        if let location, !location.isEmpty {
            return "authcode: error: \(message) (\(location))"
        }
        return "authcode: error: \(message)"
    }

    /// The error line finished for the terminal where no secret is known
    /// (before any option was read).
    var line: String { ServerText.finished(markedLine) }

    // MARK: - Exit code and hint, per layer

    private static func flag(_ keyPath: PartialKeyPath<Options>) -> String { OptionTable.flag(keyPath) }

    static func verdict(_ error: FlowError) -> (ExitCode, String?) {
        switch error {
        case .http(let error): verdict(error)
        case .oauth(let error): verdict(error)
        case .walk(let error): verdict(error)
        case .cache(let error): verdict(error)
        case .batch(let error): verdict(error)
        case .noAuthorizationEndpoint, .noTokenEndpoint, .noUserinfoEndpoint, .authorizationEndpointUnknown:
            (.malformedResponse, nil)
        case .noDiscoveryDocument:
            (.malformedResponse, "Check \(flag(\.flow.server.issuer)) (\(OptionTable.shortFlag(\.commandLine.verbose)) shows the URLs tried), "
                + "or give \(flag(\.flow.server.authorizeURL)) and \(flag(\.flow.server.tokenURL)) instead.")
        case .pkceNotListed(_, let listed, _):
            (.usage, "Pass \(flag(\.flow.request.pkce)) \(listed.contains("S256") ? "S256" : listed.contains("plain") ? "plain" : "off") if that is what the server expects.")
        case .noPushEndpoint, .signing, .nothingToCache:
            (.usage, nil)
        case .redirectURINotURI, .clientKeyMissing, .requestObjectWithoutIssuer, .noCacheDirectory:
            (.usage, UsageError.seeHelp)
        case .stepFailed:
            (.noAuthorizationResponse, nil)
        case .clientRefused(let error, let method, _):
            (verdict(error).0, clientHint(method))
        case .jarmWithoutKeys, .noKeys:
            (.securityCheck, "Give \(flag(\.flow.server.issuer)) (its jwks_uri) or \(flag(\.flow.verification.jwks)).")
        case .signature(_, .algorithmNotAccepted(.unsecured), _):
            (.securityCheck, nil)
        case .signature(_, .algorithmNotAccepted, _), .signature(_, .unknownAlgorithm, _):
            (.securityCheck, "The accepted algorithms come from \(flag(\.flow.verification.idTokenAlgs)), else the server's metadata.")
        case .signature:
            (.securityCheck, nil)
        case .keySetStatus:
            (.network, nil)
        case .keySetUnusable, .idTokenMissing, .signedUserinfoNotJWT:
            (.malformedResponse, nil)
        case .idTokenAlgorithmNotAllowed:
            (.securityCheck, "FAPI 2.0 servers sign id_tokens with PS256, ES256 or EdDSA; drop \(flag(\.flow.profile.fapi2)) to accept this server's algorithm.")
        case .idTokenUnverifiable:
            (.securityCheck, "Give \(flag(\.flow.server.issuer)) (its metadata names jwks_uri) or \(flag(\.flow.verification.jwks)) FILE|URL.")
        case .notSenderConstrained:
            (.securityCheck, nil)
        case .keySetFetch(_, let error):
            verdict(error)
        case .afterRefreshRefused(let error):
            verdict(error)
        case .resourceRefused(_, 401, _, _):
            (.callFailed, "The resource server did not take the token: check that \(flag(\.flow.request.scope)) and \(flag(\.flow.profile.resources)) "
                + "ask for what it needs (\(OptionTable.shortFlag(\.commandLine.verbose)) shows the call, the token redacted).")
        case .resourceRefused:
            (.callFailed, nil)
        case .answerRefused(_, _, let error), .userinfoUnverified(_, let error):
            verdict(error)
        case .jarmRefused(_, let error):
            (.securityCheck, verdict(error).1)
        }
    }

    /// `invalid_client`: what to check follows how the client authenticated.
    static func clientHint(_ method: ClientAuthMethod) -> String {
        let secret = flag(\.flow.client.secret), authMethod = flag(\.flow.client.authMethod)
        return switch method {
        case .none:
            "The client was sent as public, with no secret; if it is confidential, pass \(secret)."
        case .clientSecretBasic:
            "Check \(secret), or try \(authMethod) client_secret_post (the secret in the body, not the Authorization header)."
        case .clientSecretPost:
            "Check \(secret), or try \(authMethod) client_secret_basic (the secret in the Authorization header)."
        case .clientSecretJWT:
            "Check \(secret) (it keys the HS256 assertion), or try \(authMethod) client_secret_basic."
        case .privateKeyJWT:
            "Check that the server has the public half of \(flag(\.commandLine.clientKeyFile)) for this client, and its kid (\(flag(\.flow.profile.clientKeyID))); "
                + "some servers want the assertion's aud to be the endpoint: \(flag(\.flow.profile.assertionAud)) endpoint."
        case .tlsClientAuth, .selfSignedTLSClientAuth:
            "Check that the server has \(flag(\.flow.connection.transport.cert)) registered for this client (its subject, or the certificate itself)."
        }
    }

    static func verdict(_ error: HTTPError) -> (ExitCode, String?) {
        switch error {
        case .notAURL, .unsupportedScheme, .noHost:
            return (.noAuthorizationResponse, nil)
        case .plainHTTP(.unreadableProxy(let proxy), _, _):
            return (.securityCheck, "Check the value of \(HTTPError.source(proxy)).")
        case .plainHTTP:
            return (.securityCheck, "Use https, or pass \(flag(\.flow.connection.allowHTTP)) if this network is trusted.")
        case .untrustedOrigin(_, let origin, _):
            return (.noAuthorizationResponse, "Credentials go only to the origins of \(flag(\.flow.server.issuer)), \(flag(\.flow.server.authorizeURL)), \(flag(\.flow.server.tokenURL)), "
                + "\(flag(\.flow.walk.steps)) and the discovered endpoints; if \(origin) is part of this login, pass \(flag(\.flow.walk.trustOrigins)) \(origin).")
        case .redirectURI:
            return (.securityCheck, "authcode never fetches the redirect_uri; check the endpoints and \(flag(\.flow.client.redirectURI)).")
        case .transportSetUp, .sessionShare, .optionRefused, .outOfMemory, .trustStoreUnusable:
            return (.network, nil)
        case .bodyTooLarge, .malformedHeaders:
            return (.malformedResponse, nil)
        case .network(_, _, _, let suspect):
            switch suspect {
            case nil:
                return (.network, nil)
            case .proxy(let proxy) where proxy.isExplicit:
                return (.network, "The request went through the proxy \(proxy.shown) (\(flag(\.commandLine.proxyURL))); check it.")
            case .proxy(let proxy):
                return (.network, "The request went through the proxy \(proxy.shown) from \(HTTPError.source(proxy)); check it, or list the host in no_proxy.")
            case .plainHTTPPort(let url):
                return (.network, "The server answered in plain http, not TLS: is this port plain http? Try \(url).")
            case .clientCertificate:
                return (.network, "The server closed the TLS connection; if it requires a client certificate, pass \(flag(\.flow.connection.transport.cert)) and \(flag(\.flow.connection.transport.key)).")
            case .untrustedCertificate(let store):
                return (.network, "The server's certificate does not lead to a CA in \(store.text(CLIWording.names)); "
                    + "pass the CA that signed it with \(flag(\.flow.connection.transport.cacert)) FILE (or, for a throwaway test server, "
                    + "\(OptionTable.shortFlag(\.flow.connection.transport.insecure)), which verifies nothing).")
            }
        }
    }

    static func verdict(_ error: OAuthError) -> (ExitCode, String?) {
        switch error {
        case .repeatedParameter, .noState, .stateMismatch, .issuerMismatch, .issuerMissing, .jarmMissing, .jarmNotJWT, .jarmPayloadNotObject,
             .identityChanged, .userinfoNoSubject, .userinfoSubjectMismatch:
            (.securityCheck, nil)
        case .issuerNotOfEndpoint:
            (.securityCheck, "If that issuer is right, pass \(flag(\.flow.server.expectIss)) with it.")
        case .jarmClaims(let error, _), .claims(let error), .userinfoClaims(let error, _):
            (.securityCheck, error.problem == .untrustedAudience ? "If the server adds an audience of its own, name it with \(flag(\.flow.verification.trustAudiences))." : nil)
        case .discoveryIssuerMismatch(let found, let expected, _):
            // Equal but for a trailing slash: the same server, spelt another way.
            (.securityCheck, found + "/" == expected || found == expected + "/"
                ? "The two differ only by a trailing slash; pass \(flag(\.flow.server.issuer)) exactly as the server names itself: "
                    + "\(flag(\.flow.server.issuer)) '\(ServerText.printable(found))'." : nil)
        case .userinfoUnbound:
            (.securityCheck, "Ask for the openid scope.")
        case .authorizationServer, .pushRefused:
            (.authorizationError, nil)
        case .tokenRefused, .tokenStatus, .pushStatus, .userinfoRefused:
            (.tokenEndpoint, nil)
        case .noCode, .idTokenNotString, .idTokenEncrypted, .idTokenNotJWT, .idTokenPayloadNotObject, .discoveryNotObject, .discoveryNoIssuer,
             .tokenNotJSON, .noAccessToken, .dpopNonceMalformed, .pushNoRequestURI, .userinfoNotObject, .userinfoNotJSONOrJWT, .signedUserinfoNotObject:
            (.malformedResponse, nil)
        }
    }

    static func verdict(_ error: WalkError) -> (ExitCode, String?) {
        let redirectURIHint = "Check \(flag(\.flow.client.redirectURI)) against the client's registration (scheme, host, port and path must match)."
        return switch error {
        case .http(let error):
            verdict(error)
        case .driver(let error):
            verdict(error)
        case .unmatchedFormNames(_, let fields, let error):
            (verdict(error).0, "Give \(flag(\.flow.walk.form)) the login's own field names"
                + (fields.isEmpty ? "" : " (\(fields.prefix(2).map { "\(ServerText.printable($0, limit: 80))=…" }.joined(separator: ", ")))")
                + ", or username and password, which fill a login form's identifier and password fields.")
        case .unexpectedStatus(_, let quote, _) where quote.mentionsRedirectURI, .noFormToFill(_, _, let quote, _) where quote.mentionsRedirectURI:
            (.noAuthorizationResponse, redirectURIHint)
        case .redirectLoop, .redirectWithoutLocation, .locationNotURI, .unexpectedStatus, .unresolvablePage, .formActionNotURL, .noFormToFill, .postRefused,
             .formValueInURL, .form(.noForm, _):
            (.noAuthorizationResponse, nil)
        case .locationsDiffer:
            (.malformedResponse, nil)
        case .requestLost:
            (.noAuthorizationResponse, "\(flag(\.flow.request.method)) GET sends the authorization request as a GET.")
        case .hopLimit:
            (.noAuthorizationResponse, "Raise \(flag(\.flow.walk.maxHops)) if the server really needs more steps.")
        case .answerRedirected, .answerMisdirected:
            (.securityCheck, redirectURIHint)
        case .needsJavaScript:
            (.noAuthorizationResponse, "authcode runs no scripts: log in through the server's JSON API with \(flag(\.flow.walk.steps)) "
                + "'POST URL {\"username\":…}' before the authorization request (README: \"Identity providers\").")
        case .loginRejected(_, _, true, _):
            (.noAuthorizationResponse, "The server turned down the code made from \(flag(\.flow.walk.totpSecret)); check the seed (algorithm, digits, period) "
                + "and this machine's clock.")
        case .loginRejected:
            (.noAuthorizationResponse, "The server turned down the credentials given with \(flag(\.flow.walk.form)); check them "
                + "(\(OptionTable.shortFlag(\.commandLine.verbose)) shows the form sent, secrets redacted).")
        case .form(.noSubmitMatching, _):
            (.noAuthorizationResponse, "Check \(flag(\.flow.walk.submit)) against the page's buttons (\(OptionTable.shortFlag(\.commandLine.verbose)) shows the chosen form).")
        case .form(.missingCredentials(let names), _):
            (.noAuthorizationResponse, "Pass them with \(flag(\.flow.walk.form)) NAME=VALUE (e.g. \(flag(\.flow.walk.form)) \(names.first ?? "username")=VALUE "
                + "\(flag(\.flow.walk.form)) password=@password.txt).")
        case .oneTimeCodeWithoutSecret:
            (.noAuthorizationResponse, "Pass the authenticator app's seed with \(flag(\.flow.walk.totpSecret)) (base32, or the otpauth:// URI of its QR code).")
        case .unfilledField(let name, false, _):
            (.noAuthorizationResponse, "Pass it with \(flag(\.flow.walk.form)) \(ServerText.printable(name))=VALUE, or, if it takes a one-time code, "
                + "\(flag(\.flow.walk.totpSecret)) with \(flag(\.flow.walk.totpField)) \(ServerText.printable(name)).")
        case .unfilledField(let name, true, _):
            (.noAuthorizationResponse, "If that field takes the one-time code, pass \(flag(\.flow.walk.totpField)) \(ServerText.printable(name)).")
        case .endpointIsRedirectURI:
            (.securityCheck, "Check \(flag(\.flow.client.redirectURI)) and the endpoints (flags or the issuer's metadata).")
        }
    }

    static func verdict(_ error: CacheError) -> (ExitCode, String?) {
        switch error {
        case .file(let error):
            verdict(error)
        case .cannotCreateDirectory:
            (.usage, "Pass \(flag(\.flow.cache.directory)) with a directory you can write.")
        case .saltWrongSize:
            (.usage, "Remove it: a new one is made, and every token is then minted anew.")
        case .emptyDirectoryPath:
            (.usage, UsageError.seeHelp)
        case .saltVanished, .clientFileNotRegular, .clientFileMissing, .clientFileTooLarge:
            (.usage, nil)
        }
    }

    static func verdict(_ error: FileError) -> (ExitCode, String?) {
        switch error {
        case .symbolicLink(.passkeyFile, let path), .notRegularFile(.passkeyFile, let path, _):
            (.usage, "authcode rewrites '\(path)' after each use, so it must be a regular file: give the file's own path, not a link.")
        case .symbolicLink(_, let path), .notRegularFile(_, let path, _):
            (.usage, "authcode makes its cache files itself; remove '\(path)' (or pass \(flag(\.flow.cache.directory)) with a directory of your own, mode 0700).")
        case .readableByOthers(_, let path, _):
            (.usage, "It keys every cache file name: remove it (every token is then minted anew), or chmod 600 '\(path)'.")
        case .foreignOwner:
            (.usage, "Pass \(flag(\.flow.cache.directory)) with a directory of your own, mode 0700.")
        case .writableByOthers(_, _, _, true):
            (.usage, "Pass \(flag(\.flow.cache.directory)) with a private directory instead, e.g. \(flag(\.flow.cache.directory)) \"$HOME/.cache/authcode\".")
        case .writableByOthers(_, let path, _, false):
            (.usage, "chmod go-w '\(path)', or pass \(flag(\.flow.cache.directory)) with a directory of mode 0700.")
        case .lockTimeout:
            (.network, "Wait for it, or raise \(flag(\.flow.connection.transport.timeout)).")
        case .cannotOpen, .cannotInspect, .cannotUse, .cannotRead, .notADirectory, .cannotRemove, .cannotWrite, .cannotMake, .cannotOpenLock,
             .cannotLock:
            (.usage, nil)
        }
    }

    static func verdict(_ error: DriverError) -> (ExitCode, String?) {
        let form = flag(\.flow.walk.form), verbose = OptionTable.shortFlag(\.commandLine.verbose)
        return switch error {
        case .walk(let error):
            verdict(error)
        case .passkey(let error, _):
            verdict(error)
        case .loginRejected(let provider, _, _):
            (.noAuthorizationResponse, "\(provider.displayName) turned down the credentials given with \(form); check them (\(verbose) shows each step, secrets redacted).")
        case .factorUnsupported(let provider, _, _):
            (.noAuthorizationResponse, "Enrol a factor authcode can answer for the test user: a TOTP authenticator app (pass its seed with "
                + "\(flag(\.flow.walk.totpSecret)))" + (provider.answersPasskeys ? " or a passkey (\(flag(\.flow.walk.passkeyFile)))." : "."))
        case .oneTimeCodeNeeded:
            (.noAuthorizationResponse, "Pass the account's TOTP seed with \(flag(\.flow.walk.totpSecret)) (base32, or the otpauth:// URI of its QR code).")
        case .oneTimeCodeRejected(let provider, _, _):
            (.noAuthorizationResponse, "\(provider.displayName) turned down the code made from \(flag(\.flow.walk.totpSecret)); "
                + "check the seed (algorithm, digits, period) and this machine's clock.")
        case .noProgress:
            (.noAuthorizationResponse, "\(verbose) shows each step; reads are bounded at four per hop, so \(flag(\.flow.walk.maxHops)) raises the bound "
                + "if the provider really needs more.")
        case .passkeyRejected(let provider, _, _):
            (.noAuthorizationResponse, "\(provider.displayName) turned down the passkey in \(flag(\.flow.walk.passkeyFile)); give the file this user enrolled, "
                + "or enrol one with \(flag(\.flow.walk.passkeyRegister)).")
        case .errorPage:
            (.noAuthorizationResponse, "\(verbose) shows the requests that led there. A login cookie that did not come back (a proxy, or a host name that changes "
                + "between requests) ends a login this way.")
        case .requiredAction(.keycloak, _, _):
            (.noAuthorizationResponse, "authcode cannot do this for the user; an administrator can take it off the test user (admin console: Users → the user → "
                + "Required user actions) or turn it off for the realm (Authentication → Required actions).")
        case .requiredAction:
            (.noAuthorizationResponse, "authcode cannot do this for the user; an administrator can take the action off the test user's account.")
        case .credentialsMissing:
            (.noAuthorizationResponse, "Pass them with \(form) NAME=VALUE (e.g. \(form) username=VALUE \(form) password=@password.txt).")
        case .pageUnknown:
            (.noAuthorizationResponse, "If the provider's login changed, \(verbose) shows each step; \(flag(\.flow.walk.idp)) none walks the HTML pages without the driver.")
        }
    }

    static func verdict(_ error: WebAuthnError) -> (ExitCode, String?) {
        let passkey = flag(\.flow.walk.passkeyFile), register = flag(\.flow.walk.passkeyRegister)
        return switch error {
        case .noPasskey:
            (.noAuthorizationResponse, "Give the user's passkey file with \(passkey) FILE, or enrol one on a login that offers it with \(passkey) FILE \(register) "
                + "(README \"Passkeys\").")
        case .registrationNotAllowed(let path):
            (.noAuthorizationResponse, "Registering enrols a new factor on the account; to let authcode do it, pass \(register) with a \(passkey) "
                + "\(path.map { "'\($0)'" } ?? "FILE") that does not exist yet.")
        case .passkeyExists:
            (.noAuthorizationResponse, "The server does not know the passkey in it: remove the file to enrol a new one, or name another file.")
        case .noCredentialYet:
            (.noAuthorizationResponse, "It is made on a login that asks to register a passkey (\(register)).")
        case .ipLiteral:
            (.noAuthorizationResponse, "Reach the server by a host name (localhost works).")
        case .credentialNotAllowed:
            (.noAuthorizationResponse, "Give the passkey file this user enrolled, or enrol one with \(register).")
        case .notAnOrigin, .insecureOrigin, .invalidRPID, .rpIDNotForOrigin, .rpIDMismatch, .emptyChallenge, .noSupportedAlgorithm, .badUserHandle:
            (.noAuthorizationResponse, nil)
        case .counterExhausted:
            (.usage, "Enrol a new passkey (\(register) with a new file).")
        case .file(let problem, let path):
            (.usage, hint(problem, path))
        case .signing:
            (.usage, nil)
        case .store(let error):
            verdict(error)
        }
    }

    /// What to do about a passkey file that cannot be used.
    static func hint(_ problem: PasskeyFileProblem, _ path: String) -> String {
        switch problem {
        case .exposed: "Run chmod 600 '\(path)'; if others could read it, enrol a new passkey and remove this one from the account."
        case .absent: "A passkey file is made on a login that asks to register one: \(flag(\.flow.walk.passkeyFile)) FILE \(flag(\.flow.walk.passkeyRegister))."
        case .directoryNotWritable: "Keep the file in a directory of your own (a CI secret copied to a temporary directory, say)."
        default: "README \"Passkeys\" shows what a passkey file holds."
        }
    }

    static func verdict(_ error: BatchError) -> (ExitCode, String?) {
        switch error {
        case .separator:
            (.usage, "Separate the columns with commas, e.g. a first line \"username,password\"; quote a value that holds a comma.")
        case .headerLooksLikeData:
            (.usage, "Add a header row naming the login form's fields as the file's first line, e.g. \"username,password\".")
        case .unreadableInput, .input, .reservedField, .badRecord, .badRecordField, .workersNotStarted:
            (.usage, nil)
        case .outputFailed:
            (.outputFailed, nil)
        case .unfilledByRecord:
            (.noAuthorizationResponse, nil)
        }
    }
}
