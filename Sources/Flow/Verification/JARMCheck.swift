import Core
import HTTP
import JOSE
import OAuth
import Walk

/// `--response-mode jwt` and its forms (OpenID JARM): the `response` JWT
/// verified with the run's keys and its `iss`, `aud` and `exp` checked
/// before `code`, `state` or `error` is read from it (JARM §2.4). Any
/// failure is exit 5 and the code is never redeemed. The answer crossed
/// the front channel, so unlike an id_token it always needs keys.
struct JARMCheck {
    let server: ServerSettings
    /// The audience the answer must name; the secret an HS* one is keyed with.
    let clientSettings: ClientSettings
    let verification: VerificationSettings
    let client: HTTPClient
    let endpoints: ServerEndpoints
    let now: () -> Double

    /// Before the authorization request: with no keys to verify the answer
    /// with, the login would be wasted (refused, nothing sent).
    static func requireKeys(_ responseMode: ResponseMode?, _ endpoints: ServerEndpoints) throws(FlowError) {
        guard let mode = responseMode, mode.isJARM, endpoints.keys.source == nil else { return }
        throw .jarmWithoutKeys(mode)
    }

    func response(in answer: AuthorizationAnswer, mode: ResponseMode, authorizeURL: String) throws(FlowError) -> (response: AuthorizationResponse, place: String) {
        let place: String
        let fields: [(String, String)]
        switch answer {
        case .redirect(let location):
            place = location.withoutQuery
            fields = JARMResponse.fields(of: location, mode: mode)
        case .formPost(let posted, let page):
            place = page
            fields = posted.map { ($0.name, $0.value) }
        }
        let jwt: String
        let jws: CompactJWS
        do {
            jwt = try JARMResponse.jwt(in: fields, mode: mode, at: place)
            client.trace.redactor.remember(jwt)
            jws = try JARMResponse.parse(jwt, at: place)
        } catch {
            throw .oauth(error)
        }
        let verified: VerifiedJWS
        do throws(FlowError) {
            verified = try SignatureCheck.verifyServerJWS(jws, advertised: endpoints.metadata?.authorizationSigningAlgs, what: .jarmResponse,
                                                          verification: verification, clientSecret: clientSettings.secret, endpoints: endpoints,
                                                          client: client, now: now())
        } catch {
            guard error.isSecurityRefusal else { throw error }
            throw .jarmRefused(at: place, error)
        }
        let issuer = SignatureCheck.expectedIssuer(server, endpoints: endpoints, else: authorizeURL)
        let response: AuthorizationResponse
        do {
            response = try JARMResponse.response(payload: verified.payload, issuer: issuer, clientID: clientSettings.id, now: now(),
                                                 skew: verification.clockSkew, at: place)
        } catch {
            throw .oauth(error)
        }
        client.trace.redactor.remember(response.code)
        client.trace.info("JARM response: \(ServerText.printable(verified.summary, limit: 120)); iss; aud; exp")
        return (response, place)
    }
}
