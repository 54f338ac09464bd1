import Core
import HTTP
import JOSE
import OAuth

/// The id_token of one token answer, verified as OIDC Core §3.1.3.7 asks
/// (for a refresh, §12.2): the signature when keys can be known — the
/// issuer's `jwks_uri`, `--jwks`, or algorithms pinned with
/// `--id-token-alg` — then every claim rule; `-v` lists exactly the checks
/// that ran. Without keys the signature of a token that came straight from
/// the token endpoint is not checked (§3.1.3.7 item 6 lets the TLS
/// connection stand in for it), and `-v` says so.
package struct IDTokenCheck {
    let keys: KeyStore
    let metadata: ServerMetadata?
    let issuer: ExpectedIssuer
    /// The nonce the authorization request sent; nil for a refresh.
    let nonce: String?
    /// A refresh: the id_token the answer's must keep iss, sub, aud, azp
    /// and auth_time of (the cache entry's); nil when there is none.
    let stored: String?
    /// The algorithms, audiences, skew and a client profile's demands.
    let rules: VerificationSettings
    /// The audience an id_token must name, and the secret an HS* one is keyed with.
    let client: ClientSettings
    /// A code grant with `openid` in its scope: its answer must carry an id_token.
    var requiresIDToken = false
    /// A code grant's `--param max_age` (auth_time is checked against it).
    var maxAge: Double? = nil

    /// The expected issuer of an id_token: `--expect-iss`, `--issuer`, the
    /// metadata's issuer, the authorization response's checked `iss`; else
    /// an issuer of the token endpoint's origin.
    static func issuer(_ server: ServerSettings, metadata: ServerMetadata?, answerIss: String? = nil, tokenURL: String) -> ExpectedIssuer {
        ExpectedIssuer.first([server.expectIss, server.issuer, metadata?.issuer, answerIss], else: tokenURL)
    }

    func verify(_ token: TokenResponse, client http: HTTPClient, now: Double) throws(Failure) {
        guard let jwt = try IDTokenClaims.jwt(in: token.json) else {
            if requiresIDToken {
                throw Failure(.malformedResponse, "the token response has no id_token, but the scope has openid (OIDC Core §3.1.3.3)")
            }
            return
        }
        let jws = try IDTokenClaims.parse(jwt)
        // --fapi2 allows only its own algorithms (FAPI 2.0 Security Profile
        // §5.4: PS256, ES256, EdDSA), whatever the server advertises.
        if let allowed = rules.profileIDTokenAlgorithms, !allowed.contains(jws.algorithmName) {
            throw Failure(.securityCheck, "id_token: the JWS alg \(ServerText.printable(jws.algorithmName, limit: 20)) is not allowed by --fapi2 (allowed: \(allowed.sorted().joined(separator: ", ")))",
                          hint: "FAPI 2.0 servers sign id_tokens with PS256, ES256 or EdDSA; drop --fapi2 to accept this server's algorithm.")
        }
        var ran: [String] = []
        if keys.source == nil && rules.idTokenAlgs == nil {
            // A client profile (--fapi2) never lets TLS stand in for the
            // signature (FAPI 2.0 Security Profile §5.4.2: id_tokens signed).
            guard !rules.requireSignedIDToken else {
                throw Failure(.securityCheck, "the id_token's signature cannot be checked: no keys are known, and --fapi2 requires a verified signature",
                              hint: "Give --issuer (its metadata names jwks_uri) or --jwks FILE|URL.")
            }
            ran.append("signature not checked: no keys (give --issuer or --jwks)")
        } else {
            var algorithms = AcceptedAlgorithms.idToken(pinned: rules.idTokenAlgs, advertised: metadata?.idTokenSigningAlgs)
            if let allowed = rules.profileIDTokenAlgorithms {
                algorithms.formIntersection(allowed.compactMap(JWSAlgorithm.init(rawValue:)))
            }
            let verified = try SignatureCheck(keys: keys, client: http, secret: client.secret, now: now)
                .verify(jws, accepting: algorithms, what: "id_token")
            ran.append(ServerText.printable(verified.summary, limit: 120))
        }
        let claims = try IDTokenClaims(payload: jws.payload)
        ran += try claims.verify(IDTokenRules(issuer: issuer, clientID: client.id, trustedAudiences: rules.trustAudiences,
                                              nonce: nonce, maxAge: maxAge, skew: rules.clockSkew, now: now))
        if let stored, let previous = IDTokenClaims(stored: stored) {
            ran.append(try claims.keepsIdentity(of: previous))
        }
        http.trace.info("id_token: " + ran.joined(separator: "; "))
    }
}
