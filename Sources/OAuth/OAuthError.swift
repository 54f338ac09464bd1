import HTTP
import JOSE

/// Every way an OAuth or OpenID Connect answer is refused, as a value: the
/// authorization response (RFC 6749 §4.1.2, RFC 9207, JARM), discovery
/// (OIDC Discovery §4.3, RFC 8414 §3.3), the token, PAR and userinfo
/// endpoints, and the id_token's claims. It carries what the CLI needs to
/// say what happened and where (CLI/Errors/): the URL without its query,
/// the status, the server's error object, the claim's name; never a
/// sentence, never an exit code.
package enum OAuthError: Error, Equatable, Sendable {
    // The authorization response, in the order it is checked.
    /// A parameter given twice (RFC 6749 §3.1): which one.
    case repeatedParameter(String, at: String)
    /// `errorAnswer`: the answer carried `error=`, whose text is not shown
    /// before its state is checked (anyone can forge it).
    case noState(errorAnswer: Bool, at: String)
    case stateMismatch(errorAnswer: Bool, at: String)
    /// `error=` with our state (RFC 6749 §4.1.2.1); a description only when
    /// the server sent a non-empty one.
    case authorizationServer(error: String, description: String?, at: String)
    /// RFC 9207 §2.4.
    case issuerMismatch(expected: String, got: String, at: String)
    case issuerMissing(at: String)
    /// No issuer is known, and the answer's `iss` is not of the
    /// authorization endpoint's origin.
    case issuerNotOfEndpoint(iss: String, origin: String, at: String)
    case noCode(at: String)

    // JARM (OpenID JARM §2.3-2.4).
    case jarmMissing(ResponseMode, at: String)
    case jarmNotJWT(JOSEError, at: String)
    case jarmPayloadNotObject(at: String)
    case jarmClaims(ClaimError, at: String)

    // The id_token (OIDC Core §3.1.3.3, §3.1.3.7, §12.2).
    case claims(ClaimError)
    case idTokenNotString
    /// Five parts: a JWE, which needs a key of the client's.
    case idTokenEncrypted
    case idTokenNotJWT(JOSEError)
    case idTokenPayloadNotObject
    /// A refreshed id_token names another iss, sub, aud, azp or auth_time.
    case identityChanged(claim: String)

    // Discovery.
    case discoveryNotObject(at: String)
    case discoveryNoIssuer(at: String)
    case discoveryIssuerMismatch(found: String, expected: String, at: String)

    // The token endpoint (RFC 6749 §5.1-5.2). `status` is nil for an
    // error object in a 2xx answer.
    case tokenRefused(status: Int?, OAuthErrorObject, at: String)
    case tokenStatus(Int, BodyQuote, at: String)
    case tokenNotJSON(status: Int, BodyQuote, at: String)
    case noAccessToken(at: String)
    /// A `DPoP-Nonce` outside RFC 9449 §8.1's grammar, or longer than this
    /// many bytes (DPoPNonceChallenge.swift); never quoted.
    case dpopNonceMalformed(longerThan: Int?, at: String)

    // The pushed authorization request endpoint (RFC 9126 §2.2-2.3).
    case pushRefused(status: Int, OAuthErrorObject, at: String)
    case pushStatus(Int, BodyQuote, at: String)
    case pushNoRequestURI(status: Int, BodyQuote, at: String)

    // The userinfo endpoint (OIDC Core §5.3), whose body is never quoted.
    /// A non-2xx answer: its bearer error (RFC 6750 §3) if it has one, else its shape.
    case userinfoRefused(status: Int, BearerError?, BodyQuote, at: String)
    case userinfoNotObject(BodyQuote, at: String)
    case userinfoNotJSONOrJWT(BodyQuote, at: String)
    case signedUserinfoNotObject(at: String)
    case userinfoClaims(ClaimError, at: String)
    /// No id_token whose `sub` the answer's must match (§5.3.2).
    case userinfoUnbound(at: String)
    case userinfoNoSubject(at: String)
    case userinfoSubjectMismatch(at: String)
}
