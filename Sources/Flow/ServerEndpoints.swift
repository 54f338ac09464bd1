import Core
import HTTP
import OAuth

/// Where the flow goes: the endpoints from the flags, else from the issuer's
/// metadata (OIDC Discovery 1.0 §4, then RFC 8414 §3). Resolved once per
/// process: a batch of flows shares it.
package struct ServerEndpoints: Sendable {
    /// Nil for `--refresh-token` with endpoints given by hand.
    package var authorize: String?
    package var token: String
    package var metadata: ServerMetadata?
    /// The PAR endpoint (RFC 9126 §5), when `--par`, `--fapi2` or the
    /// metadata asks for pushed requests (ServerEndpoints+Profile.swift).
    package var par: String?
    /// The keys that verify the server's signatures, read once for every
    /// flow that shares these endpoints (Verification/KeyStore.swift).
    package var keys = KeyStore(source: nil)

    /// Flags win over discovery for each endpoint; discovery happens only
    /// with `--issuer`. The keys are the caller's to add (TokenFlow.endpoints).
    /// - Parameters:
    ///   - request: a refresh needs no authorization endpoint; the PKCE
    ///     method must be one the metadata lists.
    ///   - profile: whether the authorization request is pushed (PAR).
    ///   - presentsCertificate: `--cert`: the metadata's mTLS aliases apply.
    package static func resolve(_ given: ServerSettings, request: RequestSettings, profile: ProfileSettings, presentsCertificate: Bool,
                                client: HTTPClient) throws(FlowError) -> ServerEndpoints {
        let metadata = try discover(given, client: client)
        let authorize = given.authorizeURL ?? metadata?.authorizationEndpoint
        if authorize == nil && request.refreshToken == nil {
            throw .noAuthorizationEndpoint(issuer: given.issuer)
        }
        guard let token = given.tokenURL ?? metadata?.tokenEndpoint else {
            throw .noTokenEndpoint(issuer: given.issuer)
        }
        try checkPKCESupport(request, metadata, issuer: given.issuer)
        var endpoints = ServerEndpoints(authorize: authorize, token: token, metadata: metadata)
        try endpoints.applyProfile(given, request: request, profile: profile, presentsCertificate: presentsCertificate)
        return endpoints
    }

    static func discover(_ given: ServerSettings, client: HTTPClient) throws(FlowError) -> ServerMetadata? {
        guard let issuer = given.issuer else { return nil }
        var lastStatus = 0
        let candidates = ServerMetadata.candidateURLs(issuer: issuer)
        for url in candidates {
            let response: HTTPResponse
            do {
                response = try client.send(HTTPRequest(method: .get, url: url, headers: [HTTPHeader("Accept", "application/json")]),
                                           purpose: "discovery", useCookies: false)
            } catch {
                throw .http(error)
            }
            if response.isSuccess {
                do {
                    return try ServerMetadata(json: response.body, expectedIssuer: issuer, at: url)
                } catch {
                    throw .oauth(error)
                }
            }
            lastStatus = response.status
        }
        throw .noDiscoveryDocument(tried: candidates.count, lastStatus: lastStatus, issuer: issuer)
    }

    /// A server that does not list our PKCE method would reject or ignore
    /// the challenge: refused before any request of the flow.
    static func checkPKCESupport(_ request: RequestSettings, _ metadata: ServerMetadata?, issuer: String?) throws(FlowError) {
        guard request.refreshToken == nil, request.pkce != .off,
              let methods = metadata?.codeChallengeMethods, !methods.contains(request.pkce.rawValue) else { return }
        throw .pkceNotListed(request.pkce, listed: methods, issuer: issuer)
    }
}
