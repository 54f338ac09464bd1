import Core
import HTTP
import OAuth

/// RFC 6749 §6: a refresh token redeemed at the token endpoint, with the
/// same client authentication as the code grant; no walk. An id_token in
/// the answer is verified like any other but for nonce, which a refresh
/// answer does not carry, and must name the same user as the stored one
/// (OIDC Core §12.2).
struct RefreshFlow {
    let server: ServerSettings
    /// The scope to ask for again, if any.
    let request: RequestSettings
    let verification: VerificationSettings
    let client: HTTPClient
    let now: () -> Double
    let profile: ClientProfile

    /// - Parameter stored: the answer this refresh follows (a cache
    ///   entry's), whose id_token the new one must keep the identity of.
    func run(_ refreshToken: String, at endpoints: ServerEndpoints, stored: TokenResponse? = nil) throws(FlowError) -> TokenResponse {
        client.trace.redactor.remember(refreshToken)
        let check = IDTokenCheck(keys: endpoints.keys, metadata: endpoints.metadata,
                                 issuer: IDTokenCheck.issuer(server, metadata: endpoints.metadata, tokenURL: endpoints.token),
                                 nonce: nil, stored: stored?.idToken, rules: verification, client: profile.client)
        return try TokenEndpoint(client: client, now: now, profile: profile)
            .exchange(.refreshToken(refreshToken, scope: request.scope), at: endpoints.token,
                      purpose: "refresh token request", idToken: check, spent: .refreshToken)
    }
}
