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
    /// `--trust-origin`s, each `scheme://host[:port]` in lower case.
    package var trustOrigins: [String] = []
    package var submit: SubmitChoice?
    package var steps: [Step] = []
    package var maxHops = 10

    package init() {}

    /// The `--totp-secret` seed, parsed.
    package var totp: TOTP? {
        totpSecret.flatMap { try? TOTP.parse($0) }
    }
}
