import Core
import HTTP
import OAuth

/// One exchange at the token endpoint, for any grant (RFC 6749 §4.1.3, §6):
/// the request with the run's client authentication, the answer classified
/// (exit 7 refused, 8 malformed), every token in it remembered as a secret,
/// and its id_token verified (OIDC Core §3.1.3.7; after a refresh, §12.2:
/// Verification/IDTokenCheck.swift).
struct TokenEndpoint {
    let client: HTTPClient
    /// Seconds since 1970, for the id_token's `exp`.
    let now: () -> Double
    /// The client's authentication, and what the token is for (`resource`,
    /// RFC 8707); signs each attempt's assertion and DPoP proof (ClientProfile.swift).
    let profile: ClientProfile

    /// - Parameters:
    ///   - idToken: what the answer's id_token must be.
    ///   - spent: what the server took, for the error after it answered
    ///     ("the code", "the refresh token"): it is gone either way.
    func exchange(_ grant: Grant, at tokenURL: String, purpose: String, idToken: IDTokenCheck, spent: String) throws(Failure) -> TokenResponse {
        let place = URIReference(tokenURL)?.withoutQuery ?? tokenURL
        let response = try profile.send(purpose, through: client) { () throws(Failure) in
            TokenRequest(tokenURL: tokenURL, grant: grant, client: profile.credentials,
                         assertion: try profile.assertion(at: tokenURL, tokenEndpoint: tokenURL), resources: profile.settings.resources).httpRequest(headers: [])
        }
        let token: TokenResponse
        do {
            token = try TokenResponse(response, at: place)
        } catch where error.reason == .tokenEndpoint(.invalidClient) {
            throw ClientRefusal.failure(error, method: profile.client.authMethod, grant: grant)
        }
        for secret in [token.accessToken, token.idToken, token.refreshToken] { client.trace.redactor.remember(secret) }
        do {
            try idToken.verify(token, client: client, now: now())
            try profile.checkBinding(of: token, trace: client.trace)
        } catch {
            throw Failure(error.exitCode, "\(spent) was redeemed, but the token response was refused: \(error.message)", at: place, hint: error.hint,
                          reason: error.exitCode == .securityCheck ? .answerRefused : error.reason)
        }
        return token
    }
}
