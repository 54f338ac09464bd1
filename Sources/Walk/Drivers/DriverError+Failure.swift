import Core

extension DriverError {
    /// The run's failure for this error: exit 6 with its line and hint.
    /// (The one place a driver error becomes text; it moves to the CLI's
    /// error mapping with the other layers' errors.)
    var failure: Failure {
        switch self {
        case .loginRejected(let provider, let text, let place):
            let reason = text.map { ": " + ServerText.printable($0) } ?? ""
            return Failure(.noAuthorizationResponse, "login rejected\(reason)", at: place,
                           hint: "\(provider.displayName) turned down the credentials given with --form; check them (-v shows each step, secrets redacted).")
        case .factorUnsupported(let provider, let factor, let place):
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login asks for \(factor), which authcode cannot answer", at: place,
                           hint: "Enrol a factor authcode can answer for the test user: a TOTP authenticator app (pass its seed with --totp-secret)"
                               + (provider.answersPasskeys ? " or a passkey (--passkey)." : "."))
        case .oneTimeCodeNeeded(let provider, let place):
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login asks for a one-time code", at: place,
                           hint: "Pass the account's TOTP seed with --totp-secret (base32, or the otpauth:// URI of its QR code).")
        case .oneTimeCodeRejected(let provider, let text, let place):
            let reason = text.map { ": " + ServerText.printable($0) } ?? ""
            return Failure(.noAuthorizationResponse, "login rejected\(reason)", at: place,
                           hint: "\(provider.displayName) turned down the code made from --totp-secret; check the seed (algorithm, digits, period) and this machine's clock.")
        case .passkeyRejected(let provider, let text, let place):
            let reason = text.map { ": " + ServerText.printable($0) } ?? ""
            return Failure(.noAuthorizationResponse, "login rejected\(reason)", at: place,
                           hint: "\(provider.displayName) turned down the passkey in --passkey; give the file this user enrolled, or enrol one with --passkey-register.")
        case .errorPage(let provider, let text, let place):
            let reason = text.map { ": " + ServerText.printable($0) } ?? ""
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login ended on its error page\(reason)", at: place,
                           hint: "-v shows the requests that led there. A login cookie that did not come back (a proxy, or a host name that changes between requests) ends a login this way.")
        case .requiredAction(let provider, let action, let place):
            let hint = provider == .keycloak
                ? "authcode cannot do this for the user; an administrator can take it off the test user (admin console: Users → the user → Required user actions) or turn it off for the realm (Authentication → Required actions)."
                : "authcode cannot do this for the user; an administrator can take the action off the test user's account."
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login stops at a required action: \(action)", at: place, hint: hint)
        case .credentialsMissing(let provider, let names, let place):
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login asks for \(names.joined(separator: ", ")), and no --form value fills them", at: place,
                           hint: "Pass them with --form NAME=VALUE (e.g. --form username=VALUE --form password=@password.txt).",
                           reason: .unfilledFields(names))
        case .pageUnknown(let provider, let saw, let place):
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) driver does not know this page: \(ServerText.printable(saw))", at: place,
                           hint: "If the provider's login changed, -v shows each step; --idp none walks the HTML pages without the driver.")
        case .noProgress(let provider, let requests, let place):
            return Failure(.noAuthorizationResponse, "the \(provider.displayName) login read \(requests) answers without getting anywhere", at: place,
                           hint: "-v shows each step; reads are bounded at four per hop, so --max-hops raises the bound if the provider really needs more.")
        case .passkey(let error, let place):
            return error.failure(at: place)
        case .walk(let failure):
            return failure
        }
    }
}
