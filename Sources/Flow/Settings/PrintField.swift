/// `--print`: what goes to stdout (README "Output and exit codes"); a
/// new format is a case here and its text in CLI/ResultPrinter.swift.
package enum PrintField: String, Sendable, Equatable, CaseIterable {
    case json
    case accessToken = "access_token"
    case idToken = "id_token"
    case refreshToken = "refresh_token"
    case header
    case expiresAt = "expires_at"
    case execCredential = "exec-credential"
    case code
    /// The verified id_token's payload, one JSON line.
    case claims
    /// The userinfo answer (a signed one's verified payload), one JSON line.
    case userinfo
}
