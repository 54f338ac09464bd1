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
    /// with `--issuer`.
    /// - Parameter wording: the CLI's words for the run's key store
    ///   (KeyStore.swift), which traces what it could not keep.
    package static func resolve(_ options: Options, client: HTTPClient, wording: any FlowWording) throws(FlowError) -> ServerEndpoints {
        let metadata = try discover(options, client: client)
        let authorize = options.authorizeURL ?? metadata?.authorizationEndpoint
        if authorize == nil && options.refreshToken == nil {
            throw .noAuthorizationEndpoint(issuer: options.issuer)
        }
        guard let token = options.tokenURL ?? metadata?.tokenEndpoint else {
            throw .noTokenEndpoint(issuer: options.issuer)
        }
        try checkPKCESupport(options, metadata)
        var endpoints = ServerEndpoints(authorize: authorize, token: token, metadata: metadata)
        try endpoints.applyProfile(options)
        endpoints.keys = try KeyStore.make(options, metadata: metadata, wording: wording)
        return endpoints
    }

    static func discover(_ options: Options, client: HTTPClient) throws(FlowError) -> ServerMetadata? {
        guard let issuer = options.issuer else { return nil }
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
    static func checkPKCESupport(_ options: Options, _ metadata: ServerMetadata?) throws(FlowError) {
        guard options.refreshToken == nil, options.pkce != .off,
              let methods = metadata?.codeChallengeMethods, !methods.contains(options.pkce.rawValue) else { return }
        throw .pkceNotListed(options.pkce, listed: methods, issuer: options.issuer)
    }
}
