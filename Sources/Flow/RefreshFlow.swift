import Core
import HTTP
import OAuth

/// RFC 6749 §6: a refresh token redeemed at the token endpoint, with the
/// same client authentication as the code grant; no walk. An id_token in
/// the answer is checked for iss, aud and exp but not nonce: a refresh
/// answer carries none (OIDC Core §12.2).
struct RefreshFlow {
    let options: Options
    let client: HTTPClient
    let now: () -> Double
    var profile: ClientProfile? = nil

    func run(_ refreshToken: String, at tokenURL: String) throws(Failure) -> TokenResponse {
        client.trace.redactor.remember(refreshToken)
        return try TokenEndpoint(options: options, client: client, now: now, profile: profile)
            .exchange(.refreshToken(refreshToken, scope: options.scope), at: tokenURL,
                      purpose: "refresh token request", nonce: nil, spent: "the refresh token")
    }
}
