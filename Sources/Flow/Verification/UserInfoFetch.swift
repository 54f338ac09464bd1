import Core
import HTTP
import JOSE
import OAuth

/// `--userinfo`: after the token (a new one, a refreshed one or the
/// cache's), GET the metadata's `userinfo_endpoint` with the access token
/// (OIDC Core §5.3.1). The answer's `sub` must be the id_token's (§5.3.2);
/// a signed answer (`application/jwt`, §5.3.2) is verified with the run's
/// keys first. Its body is never quoted in an error line
/// (OAuth/UserInfoResponse.swift).
package struct UserInfoFetch {
    /// Where errors point without a userinfo endpoint; the expected issuer.
    let server: ServerSettings
    let verification: VerificationSettings
    let client: HTTPClient
    let endpoints: ServerEndpoints
    let now: () -> Double
    /// How the access token is presented (Flow/BackChannel.swift): its
    /// scheme in the registered spelling whatever case the server wrote
    /// `token_type` in (RFC 6750 §2.1), and for a DPoP-bound token a proof
    /// with `ath`, retried once with the server's nonce (RFC 9449 §7.1).
    let profile: ClientProfile

    func fetch(for token: MintedToken) throws(FlowError) -> UserInfo {
        guard let url = endpoints.metadata?.userinfoEndpoint else {
            throw .noUserinfoEndpoint(issuer: server.issuer)
        }
        let place = URIReference(url)?.withoutQuery ?? url
        let request = HTTPRequest(method: .get, url: url, headers: [HTTPHeader("Accept", "application/json, application/jwt")])
        let response = try profile.sendToResource(request, accessToken: token.response.accessToken ?? "",
                                                  tokenType: token.response.json["token_type"]?.stringValue, through: client,
                                                  purpose: "userinfo request")
        var ran: [String] = []
        let claims: [UInt8]
        let body: UserInfoResponse.Body
        do {
            body = try UserInfoResponse.classify(response, at: place)
        } catch {
            throw .oauth(error)
        }
        switch body {
        case .json(let body):
            claims = body
        case .jwt(let jwt):
            let jws: CompactJWS
            do throws(JOSEError) {
                jws = try CompactJWS(jwt)
            } catch {
                throw .signedUserinfoNotJWT(error, at: place)
            }
            let verified: VerifiedJWS
            do throws(FlowError) {
                verified = try SignatureCheck.verifyServerJWS(jws, advertised: endpoints.metadata?.userinfoSigningAlgs, what: .signedUserinfo,
                                                              verification: verification, clientSecret: profile.client.secret, endpoints: endpoints,
                                                              client: client, now: now())
            } catch {
                // Where the keys failed, the key set's URL is said (README "Output and exit codes").
                throw .userinfoUnverified(at: place, error)
            }
            let issuer = SignatureCheck.expectedIssuer(server, endpoints: endpoints, else: url)
            do {
                claims = try UserInfoResponse.signedClaims(payload: verified.payload, issuer: issuer, clientID: profile.client.id, at: place)
            } catch {
                throw .oauth(error)
            }
            ran.append(ServerText.printable(verified.summary, limit: 120))
        }
        let subject = token.response.idToken.flatMap(IDTokenClaims.init(stored:))?.subject
        do {
            try UserInfoResponse.checkSubject(claims, idTokenSubject: subject, at: place)
        } catch {
            throw .oauth(error)
        }
        ran.append("sub matches the id_token's")
        client.trace.info("userinfo: " + ran.joined(separator: "; "))
        return UserInfo(claims: claims)
    }
}
