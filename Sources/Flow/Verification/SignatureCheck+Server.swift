import Core
import HTTP
import JOSE
import OAuth

extension SignatureCheck {
    /// A JWS the server signs besides the id_token (a JARM response, a
    /// signed userinfo answer): verified with the run's keys and client
    /// secret, accepting the algorithms the metadata advertises for it
    /// (`advertised`), else the id_token's set; never `none`.
    static func verifyServerJWS(_ jws: CompactJWS, advertised: [String]?, what: SignedAnswer, verification: VerificationSettings, clientSecret: String?,
                                endpoints: ServerEndpoints, client: HTTPClient, now: Double) throws(FlowError) -> VerifiedJWS {
        let metadata = endpoints.metadata
        let algorithms = AcceptedAlgorithms.other(advertised: advertised,
                                                  idToken: AcceptedAlgorithms.idToken(pinned: verification.idTokenAlgs, advertised: metadata?.idTokenSigningAlgs))
        return try SignatureCheck(keys: endpoints.keys, client: client, secret: clientSecret, now: now)
            .verify(jws, accepting: algorithms, what: what)
    }

    /// The issuer such a JWS must name: `--expect-iss`, `--issuer`, the
    /// metadata's `issuer`, else one of `fallback`'s origin.
    static func expectedIssuer(_ server: ServerSettings, endpoints: ServerEndpoints, else fallback: String) -> ExpectedIssuer {
        ExpectedIssuer.first([server.expectIss, server.issuer, endpoints.metadata?.issuer], else: fallback)
    }
}
