import Core
import HTTP
import OAuth

/// The back-channel requests of the modern client profile (token, refresh,
/// PAR, userinfo, a resource): built afresh for every attempt, so each
/// carries a new client assertion and a DPoP proof signed just before it
/// goes; a `use_dpop_nonce` answer (RFC 9449 §8, §9) is sent once more with
/// the server's nonce. Every attempt is an ordinary `HTTPClient.send`:
/// policy, adapters and trace see it like any other request.
extension ClientProfile {
    /// - Parameters:
    ///   - accessToken: the token the request presents (userinfo, a
    ///     resource): its hash goes into the proof as `ath` (§7.1).
    ///   - build: the request for one attempt, with a fresh assertion.
    package func send(_ purpose: String, through client: HTTPClient, accessToken: String? = nil,
                      build: () throws(FlowError) -> HTTPRequest) throws(FlowError) -> HTTPResponse {
        var again = false
        while true {
            var request = try build()
            if let proof = try proof(method: request.method.rawValue, url: request.url, accessToken: accessToken) {
                request.headers.removeAll { $0.name.lowercased() == "dpop" }
                request.headers.append(HTTPHeader("DPoP", proof))
            }
            let response: HTTPResponse
            do {
                response = try client.send(request, purpose: again ? "\(purpose), again with the server's DPoP nonce" : purpose, useCookies: false)
            } catch {
                throw .http(error)
            }
            if settings.dpop != nil {
                do {
                    try DPoPNonceChallenge.check(response, at: URIReference(request.url)?.withoutQuery ?? request.url)
                } catch {
                    throw .oauth(error)
                }
            }
            nonces.learn(from: response, for: request.url)
            guard settings.dpop != nil, !again, DPoPNonceChallenge.demanded(by: response) != nil else { return response }
            client.trace.info("the server asks for a DPoP nonce (RFC 9449 §8): sending once more with it, a new proof and a new assertion")
            again = true
        }
    }

    /// A request to a protected resource (the userinfo endpoint, OIDC Core
    /// §5.3.1; an API) with the access token in the scheme its `token_type`
    /// names: `DPoP` with a proof for a DPoP-bound token (RFC 9449 §7.1),
    /// else `Bearer` (RFC 6750 §2.1). The hook for `--userinfo`.
    package func sendToResource(_ request: HTTPRequest, accessToken: String, tokenType: String?, through client: HTTPClient,
                                purpose: String) throws(FlowError) -> HTTPResponse {
        let scheme = TokenScheme(tokenType: tokenType)
        var presented = request
        presented.headers.removeAll { $0.name.lowercased() == "authorization" }
        presented.headers.append(HTTPHeader("Authorization", "\(scheme.headerName) \(accessToken)"))
        guard scheme == .dpop else {
            do {
                return try client.send(presented, purpose: purpose, useCookies: false)
            } catch {
                throw .http(error)
            }
        }
        return try send(purpose, through: client, accessToken: accessToken) { presented }
    }
}
