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

    func run(_ refreshToken: String, at tokenURL: String) throws(Failure) -> TokenResponse {
        client.trace.redactor.remember(refreshToken)
        let request = TokenRequest(tokenURL: tokenURL, grant: .refreshToken(refreshToken, scope: options.scope),
                                   client: ClientCredentials(id: options.clientID, secret: options.clientSecret, method: options.authMethod))
        let place = URIReference(tokenURL)?.withoutQuery ?? tokenURL
        let response = try client.send(request.httpRequest(headers: []), purpose: "refresh token request", useCookies: false)
        let token = try TokenResponse(response, at: place)
        for secret in [token.accessToken, token.idToken, token.refreshToken] { client.trace.redactor.remember(secret) }
        if let idToken = token.idToken {
            do {
                try IDTokenClaims(jwt: idToken).verify(issuer: options.expectIss ?? options.issuer, clientID: options.clientID,
                                                       nonce: nil, now: SystemClock.now())
            } catch {
                throw Failure(error.exitCode, "the refresh token was redeemed, but the new id_token was refused: \(error.message)",
                              at: place, hint: error.hint)
            }
            client.trace.info("id_token claims checked: iss, aud, exp (no nonce after a refresh)")
        }
        return token
    }
}
