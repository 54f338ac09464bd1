import Core

/// Why a driver stopped (README "Identity providers"), as values: the CLI turns each into
/// its line and hint (CLI/Errors/DriverError+Text.swift, ErrorReport.swift).
/// Every case ends the run without an authorization response. Provider
/// text is server text: it is scrubbed and escaped like any page text
/// before it reaches the terminal.
package enum DriverError: Error, Equatable, Sendable {
    /// The provider turned the login down; `text` is its own message (from
    /// its JSON or its page), nil when it gave none.
    case loginRejected(provider: IdentityProvider, text: String?, at: String)
    /// The account asks for a factor authcode cannot answer (push, SMS, a
    /// phone call, a security key without a passkey file).
    case factorUnsupported(provider: IdentityProvider, factor: String, at: String)
    /// The account asks for a one-time code and no `--totp-secret` was given.
    case oneTimeCodeNeeded(provider: IdentityProvider, at: String)
    /// The provider turned down the one-time code made from `--totp-secret`;
    /// `text` is its own message. Apart from `loginRejected` because the
    /// remedy differs: the seed or the clock, not the password.
    case oneTimeCodeRejected(provider: IdentityProvider, text: String?, at: String)
    /// The provider turned down what the run's passkey answered (a
    /// credential it does not know, a signature or counter it refuses);
    /// `text` is its own message.
    case passkeyRejected(provider: IdentityProvider, text: String?, at: String)
    /// The login ended on the provider's own error page (Keycloak's
    /// error.ftl: "Cookie not found…", "Client not found."); `text` is what
    /// it says.
    case errorPage(provider: IdentityProvider, text: String?, at: String)
    /// The login stops at an action the user must take in person (update a
    /// password or a profile, verify an e-mail address, set up OTP).
    case requiredAction(provider: IdentityProvider, action: String, at: String)
    /// The provider asks for fields that no `--form` value fills (the
    /// provider's own field names).
    case credentialsMissing(provider: IdentityProvider, names: [String], at: String)
    /// A page or answer of the provider that the driver does not know:
    /// `saw` says what it was (a page id, a status and content type, a JSON
    /// status or component name) — never a secret, never script text.
    case pageUnknown(provider: IdentityProvider, saw: String, at: String)
    /// The provider kept the driver reading its state (`requests` GETs)
    /// without the login getting anywhere.
    case noProgress(provider: IdentityProvider, requests: Int, at: String)
    /// The software authenticator refused or failed (WebAuthn/WebAuthnError.swift),
    /// on the page or API answer at `at`.
    case passkey(WebAuthnError, at: String)
    /// An error of the walk or of the HTTP client, met on a driver's request.
    indirect case walk(WalkError)
}
