import Core
import HTTP
import JOSE
import OAuth
import Walk
import Flow

/// What goes to stdout on success (README.md "Output and exit codes"): the
/// token body on one line, one field raw, a header line, an expiry, a
/// Kubernetes ExecCredential, the code with what redeeming it needs, or the
/// verified id_token's claims or the userinfo answer as one JSON line.
package enum ResultPrinter {
    /// - Parameter execInfo: `KUBERNETES_EXEC_INFO`, which names the
    ///   ExecCredential apiVersion kubectl expects.
    static func output(_ result: FlowResult, field: PrintField, execInfo: String? = nil) throws(PrintError) -> String {
        switch result {
        case .code(let answer):
            return codeOutput(answer)
        case .token(let token):
            return try tokenOutput(token, field: field, execInfo: execInfo)
        case .forgotten:
            return ""
        }
    }

    static func tokenOutput(_ token: MintedToken, field: PrintField, execInfo: String? = nil) throws(PrintError) -> String {
        let response = token.response
        switch field {
        case .json, .code:
            return response.oneLine + "\n"
        case .accessToken, .idToken, .refreshToken:
            guard let value = response.json[field.rawValue]?.stringValue else {
                throw .missingField(field.rawValue)
            }
            return try raw(value, named: field.rawValue) + "\n"
        case .header:
            // RFC 6750 §2.1, RFC 9449 §7.1: Bearer and DPoP in their
            // registered spelling whatever the case the server used (RFC
            // 6749 §7.1), other types as written; with --dpop-for the proof
            // for that request on a second line (ResourceProof.swift).
            let scheme = TokenScheme(tokenType: response.json["token_type"]?.stringValue)
            var lines = "Authorization: \(try raw(scheme.headerName, named: "token_type")) \(try raw(response.accessToken ?? "", named: "access_token"))\n"
            if let proof = token.resourceProof { lines += "DPoP: \(proof)\n" }
            return lines
        case .expiresAt:
            guard let expiry = token.accessTokenExpiry, let text = RFC3339.format(unixTime: expiry) else {
                throw .noExpiry
            }
            return text + "\n"
        case .execCredential:
            return try ExecCredential.json(token, apiVersion: ExecCredential.apiVersion(execInfo: execInfo)) + "\n"
        case .claims:
            // Verified before the token was returned or stored (Flow/Verification/IDTokenCheck.swift).
            guard let idToken = response.idToken else {
                throw .noIDTokenClaims
            }
            do {
                return JSONLine.of(try IDTokenClaims.parse(idToken).payload) + "\n"
            } catch {
                throw .idToken(error)
            }
        case .userinfo:
            guard let userinfo = token.userinfo else {
                throw .noUserinfo
            }
            return JSONLine.of(userinfo.claims) + "\n"
        }
    }

    /// A value printed as is must not carry control characters: a hostile
    /// token endpoint could otherwise write to the terminal.
    static func raw(_ value: String, named name: String) throws(PrintError) -> String {
        guard !TerminalText.containsControl(value) else {
            throw .controlCharacters(name)
        }
        return value
    }

    /// `--print code`: everything a later step needs to redeem the code itself.
    static func codeOutput(_ answer: UnredeemedCode) -> String {
        JSONText.object([
            ("code", answer.code),
            ("state", answer.state),
            ("iss", answer.iss),
            ("code_verifier", answer.verifier),
            ("redirect_uri", answer.redirectURI),
        ]) + "\n"
    }
}
