import Core

/// What a token request redeems (RFC 6749 §4.1.3 and §6). A new grant is a
/// new case here, its fields below, and a flow in the Flow layer that gets it.
package enum Grant: Equatable, Sendable {
    /// §4.1.3: the code, the redirect_uri exactly as sent, the PKCE verifier.
    case authorizationCode(code: String, redirectURI: String, verifier: String?)
    /// §6: a refresh token, optionally narrowing the scope.
    case refreshToken(String, scope: String?)

    /// The grant's own form fields, before client authentication.
    var fields: [(String, String)] {
        switch self {
        case .authorizationCode(let code, let redirectURI, let verifier):
            var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
            if let verifier { fields.append(("code_verifier", verifier)) }
            return fields
        case .refreshToken(let token, let scope):
            var fields = [("grant_type", "refresh_token"), ("refresh_token", token)]
            if let scope, !scope.isEmpty { fields.append(("scope", scope)) }
            return fields
        }
    }
}
