import Core
import Walk

/// What the walk to the redirect_uri may fill in and press, where
/// credentials may go, and how far it goes (ARCHITECTURE.md, "The walk").
package struct WalkSettings: Equatable, Sendable {
    /// `--form` values; a batch record's fields go over them (TokenFlow.form).
    package var form: [NameValue] = []
    /// `--totp-secret`, as given (base32 or an otpauth:// URI); it parsed
    /// when the options were validated.
    package var totpSecret: String?
    package var totpField: String?
    /// `--passkey` as given (a path) and `--passkey-register`; the
    /// credential read from the file when the options were checked (nil
    /// when a registration is still to make it): Flow/Passkey/PasskeyFile.swift.
    package var passkeyFile: String?
    package var passkeyRegister = false
    package var passkey: PasskeyCredential?
    /// `--trust-origin`s, each `scheme://host[:port]` in lower case.
    package var trustOrigins: [String] = []
    package var submit: SubmitChoice?
    package var steps: [Step] = []
    package var maxHops = 20
    /// `--idp`: which login driver may take the walk's pages (Walk/Drivers/).
    package var idp: IdentityProvider = .auto

    package init() {}

    /// The `--totp-secret` seed, parsed.
    package var totp: TOTP? {
        totpSecret.flatMap { try? TOTP.parse($0) }
    }
}
