/// Why a `--totp-secret` value was refused. No case carries text from the
/// value and no message quotes it: the value is a secret, and error lines
/// reach terminals and CI logs.
package enum TOTPError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingSecret
    case invalidSecret
    case notTOTPURI
    case hotpNotSupported
    case unsupportedAlgorithm
    case invalidDigits
    case invalidPeriod
    /// The parameter's name (one of ours: secret, algorithm, digits, period).
    case duplicateParameter(String)

    package var description: String {
        switch self {
        case .missingSecret: "the TOTP secret is empty"
        case .invalidSecret: "the TOTP secret is not base32 (RFC 4648: letters A-Z and digits 2-7)"
        case .notTOTPURI: "the TOTP secret is neither a base32 seed nor an otpauth://totp/ URI"
        case .hotpNotSupported: "otpauth://hotp/ (counter-based) secrets are not supported, only otpauth://totp/"
        case .unsupportedAlgorithm: "the otpauth URI's algorithm must be SHA1, SHA256 or SHA512"
        case .invalidDigits: "the otpauth URI's digits must be a whole number from \(TOTP.digitRange.lowerBound) to \(TOTP.digitRange.upperBound)"
        case .invalidPeriod: "the otpauth URI's period must be a whole number of seconds from \(TOTP.periodRange.lowerBound) to \(TOTP.periodRange.upperBound)"
        case .duplicateParameter(let name): "the otpauth URI gives '\(name)' more than once"
        }
    }
}
