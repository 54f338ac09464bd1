import Core
import HTTP
import OAuth

/// One exchange at the token endpoint, for any grant (RFC 6749 §4.1.3, §6):
/// the request with the run's client authentication, the answer classified
/// (refused or malformed: OAuth/TokenResponse.swift), every token in it remembered as a secret,
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
    ///   - spent: what the server took, for the error after it answered:
    ///     it is gone either way.
    func exchange(_ grant: Grant, at tokenURL: String, purpose: String, idToken: IDTokenCheck, spent: RedeemedGrant) throws(FlowError) -> TokenResponse {
        let place = URIReference(tokenURL)?.withoutQuery ?? tokenURL
        let response = try profile.send(purpose, through: client) { () throws(FlowError) in
            TokenRequest(tokenURL: tokenURL, grant: grant, client: profile.credentials,
                         assertion: try profile.assertion(at: tokenURL, tokenEndpoint: tokenURL), resources: profile.settings.resources).httpRequest(headers: [])
        }
        let token: TokenResponse
        do {
            token = try TokenResponse(response, at: place)
        } catch {
            // invalid_client (RFC 6749 §5.2): the client's own authentication
            // failed, not the user's; after a code grant the login worked.
            if case .tokenRefused(_, let object, _) = error, object.code == .invalidClient {
                if case .authorizationCode = grant { throw .clientRefused(error, method: profile.client.authMethod, afterLogin: true) }
                throw .clientRefused(error, method: profile.client.authMethod, afterLogin: false)
            }
            throw .oauth(error)
        }
        for secret in [token.accessToken, token.idToken, token.refreshToken] { client.trace.redactor.remember(secret) }
        do {
            try idToken.verify(token, client: client, now: now())
            try profile.checkBinding(of: token, trace: client.trace)
        } catch {
            // The place is the request that failed (README "Output and exit codes"): the key
            // set's URL when fetching the keys did, the token endpoint's
            // when its answer is what was wrong (CLI/Errors/FlowError+Text.swift).
            throw .answerRefused(spent, at: place, error)
        }
        return token
    }
}
