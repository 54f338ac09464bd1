import Core
import HTTP
import OAuth
import Walk
import Flow

/// What goes to stdout on success (README.md "Exit codes"): the token body on one line,
/// one field raw, or the code with what is needed to redeem it later.
package enum ResultPrinter {
    static func output(_ result: FlowResult, field: PrintField) throws(Failure) -> String {
        switch result {
        case .code(let answer):
            return codeOutput(code: answer.code, state: answer.state, iss: answer.iss, verifier: answer.verifier, redirectURI: answer.redirectURI)
        case .token(let token):
            return try tokenOutput(token, field: field)
        }
    }

    static func tokenOutput(_ token: TokenResponse, field: PrintField) throws(Failure) -> String {
        switch field {
        case .json, .code:
            return token.oneLine + "\n"
        case .accessToken, .idToken, .refreshToken:
            guard let value = token.json[field.rawValue]?.stringValue else {
                throw Failure(.malformedResponse, "the token response has no \(field.rawValue) to print")
            }
            return value + "\n"
        case .header, .expiresAt, .execCredential:
            throw Failure(.usage, "--print \(field.rawValue) is being built")
        }
    }

    /// `--print code`: everything a later step needs to redeem the code itself.
    static func codeOutput(code: String, state: String?, iss: String?, verifier: String?, redirectURI: String) -> String {
        JSONText.object([
            ("code", code),
            ("state", state),
            ("iss", iss),
            ("code_verifier", verifier),
            ("redirect_uri", redirectURI),
        ]) + "\n"
    }
}
