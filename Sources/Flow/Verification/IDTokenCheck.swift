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

    /// No keys can be known (no `jwks_uri`, no `--jwks`, no pinned
    /// algorithm): an id_token's signature goes unchecked.
    static func signatureUnchecked(keys: KeyStore, rules: VerificationSettings) -> Bool {
        keys.source == nil && rules.idTokenAlgs == nil
    }

    func verify(_ token: TokenResponse, client http: HTTPClient, now: Double) throws(FlowError) {
        let jwt: String?
        do {
            jwt = try IDTokenClaims.jwt(in: token.json)
        } catch {
            throw .oauth(error)
        }
        guard let jwt else {
            if requiresIDToken {
                throw .idTokenMissing
            }
            return
        }
        let jws: CompactJWS
        do {
            jws = try IDTokenClaims.parse(jwt)
        } catch {
            throw .oauth(error)
        }
        // --fapi2 allows only its own algorithms (FAPI 2.0 Security Profile
        // §5.4: PS256, ES256, EdDSA), whatever the server advertises.
        if let allowed = rules.profileIDTokenAlgorithms, !allowed.contains(jws.algorithmName) {
            throw .idTokenAlgorithmNotAllowed(jws.algorithmName, allowed: allowed)
        }
        var ran: [String] = []
        if Self.signatureUnchecked(keys: keys, rules: rules) {
            // A client profile (--fapi2) never lets TLS stand in for the
            // signature (FAPI 2.0 Security Profile §5.4.2: id_tokens signed).
            guard !rules.requireSignedIDToken else {
                throw .idTokenUnverifiable
            }
            let names = http.trace.names
            ran.append("signature not checked: no keys (give \(names.issuer) or \(names.jwks))")
        } else {
            var algorithms = AcceptedAlgorithms.idToken(pinned: rules.idTokenAlgs, advertised: metadata?.idTokenSigningAlgs)
            if let allowed = rules.profileIDTokenAlgorithms {
                algorithms.formIntersection(allowed.compactMap(JWSAlgorithm.init(rawValue:)))
            }
            let verified = try SignatureCheck(keys: keys, client: http, secret: client.secret, now: now)
                .verify(jws, accepting: algorithms, what: .idToken)
            ran.append(ServerText.printable(verified.summary, limit: 120))
        }
        do throws(OAuthError) {
            let claims = try IDTokenClaims(payload: jws.payload)
            do throws(ClaimError) {
                ran += try claims.verify(IDTokenRules(issuer: issuer, clientID: client.id, trustedAudiences: rules.trustAudiences,
                                                      nonce: nonce, maxAge: maxAge, skew: rules.clockSkew, now: now))
            } catch {
                throw .claims(error)
            }
            if let stored, let previous = IDTokenClaims(stored: stored) {
                ran.append(try claims.keepsIdentity(of: previous))
            }
        } catch {
            throw .oauth(error)
        }
        http.trace.info("id_token: " + ran.joined(separator: "; "))
    }
}
