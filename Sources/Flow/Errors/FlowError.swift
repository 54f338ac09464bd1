import HTTP
import JOSE
import OAuth
import Walk

/// Every way a flow fails, as a value: its own failures (endpoints, the
/// client's signing, keys and verification, the cache, the batch) and the
/// lower layers' errors it passes up (`http`, `oauth`, `walk`). A few cases
/// wrap another error with the context the flow adds (the grant that was
/// spent, the answer that was being checked). The CLI words each case and
/// picks its exit code and hint (CLI/Errors/ErrorReport.swift); behaviour
/// here switches on the cases, never on words.
package indirect enum FlowError: Error, Equatable, Sendable {
    case http(HTTPError)
    case oauth(OAuthError)
    case walk(WalkError)
    case cache(CacheError)
    case batch(BatchError)

    // Endpoints (ServerEndpoints.swift); `issuer` is `--issuer`, where the
    // metadata came from.
    case noAuthorizationEndpoint(issuer: String?)
    case noTokenEndpoint(issuer: String?)
    /// Every well-known URL answered with an error status.
    case noDiscoveryDocument(tried: Int, lastStatus: Int, issuer: String)
    /// The metadata does not list the PKCE method asked for.
    case pkceNotListed(PKCEMethod, listed: [String], issuer: String?)
    /// A pushed request is asked for and the metadata names no PAR endpoint.
    case noPushEndpoint(PushDemand, issuer: String?)
    case noUserinfoEndpoint(issuer: String?)
    /// No authorization endpoint is known when the flow needs one.
    case authorizationEndpointUnknown(issuer: String?)

    // Settings the flow can only refuse when it uses them.
    case redirectURINotURI
    case clientKeyMissing
    case requestObjectWithoutIssuer
    /// The client's own signing failed (its key, its algorithm).
    case signing(ClientSignature, JOSEError)
    /// `--cache` with an answer that is no token (`--print code`).
    case nothingToCache
    /// `--cache` with no directory to keep it in.
    case noCacheDirectory

    /// A `--step` request answered with an error status.
    case stepFailed(number: Int, method: HTTPMethod, status: Int, BodyQuote, at: String)
    /// The token endpoint refused the client (invalid_client, RFC 6749
    /// §5.2): the refusal, how the client authenticated, and whether the
    /// login had already worked (a code grant).
    case clientRefused(OAuthError, method: ClientAuthMethod, afterLogin: Bool)

    // Keys and signatures (Verification/).
    /// A JARM mode asked for, and no keys can be known.
    case jarmWithoutKeys(ResponseMode)
    /// An asymmetric signature and no keys to check it: the token's `alg`.
    case noKeys(SignedAnswer, algorithm: String)
    /// The signature refused (JOSE/JWSVerifier.swift), with the algorithms accepted.
    case signature(SignedAnswer, JOSEError, accepted: Set<JWSAlgorithm>)
    /// The key set's URL answered with an error status.
    case keySetStatus(url: String, status: Int)
    case keySetUnusable(url: String, JOSEError)
    /// The key set could not be fetched (a timeout, an answer over the
    /// size limit): said at the key set's URL, not at the request that
    /// needed the keys.
    case keySetFetch(url: String, HTTPError)
    /// An openid scope and no id_token (OIDC Core §3.1.3.3).
    case idTokenMissing
    /// `--fapi2`: an id_token algorithm outside the profile's, or none verified.
    case idTokenAlgorithmNotAllowed(String, allowed: [String])
    case idTokenUnverifiable
    /// `--fapi2` and a token that is not DPoP-bound: its token_type.
    case notSenderConstrained(tokenType: String)
    case signedUserinfoNotJWT(JOSEError, at: String)

    /// With `--cache`: the entry's refresh token was refused (invalid_grant,
    /// the entry dropped), then the login that followed failed too.
    case afterRefreshRefused(FlowError)
    /// `--call`: the resource server answered 400 or more (its body went
    /// to stdout); its RFC 6750 §3 error when it gave one.
    case resourceRefused(method: String, status: Int, BearerError?, at: String)

    // Context added to another error.
    /// The code or refresh token was redeemed and the answer then refused.
    case answerRefused(RedeemedGrant, at: String, FlowError)
    /// The JARM answer's signature was refused: its code is not redeemed.
    case jarmRefused(at: String, FlowError)
    /// The signed userinfo could not be verified, said at the userinfo URL.
    case userinfoUnverified(at: String, FlowError)
}

/// Why the authorization request is pushed (RFC 9126).
package enum PushDemand: Equatable, Sendable {
    /// `--fapi2` pushes it.
    case fapi2
    /// `--par` was given.
    case option
    /// The metadata says require_pushed_authorization_requests.
    case metadata
}

/// What the client signs (ClientProfile.swift).
package enum ClientSignature: Equatable, Sendable {
    case assertion, requestObject, dpopProof
}

/// What the token endpoint took: gone, whatever the answer.
package enum RedeemedGrant: Equatable, Sendable {
    case code, refreshToken
}

extension FlowError {
    /// A security check refused something — the answer, its signature or
    /// claims, or a request its check needed (plain http, the
    /// redirect_uri) — as opposed to a network failure, an unreadable
    /// answer or a setting. JARM says "the code is not redeemed" of these
    /// (Verification/JARMCheck.swift); a refresh answer refused so drops
    /// its cache entry (Cache/TokenCache.swift).
    package var isSecurityRefusal: Bool {
        switch self {
        case .http(let error):
            switch error {
            case .plainHTTP, .redirectURI: true
            default: false
            }
        case .walk(let error):
            switch error {
            case .http(let inner): FlowError.http(inner).isSecurityRefusal
            case .answerRedirected, .answerMisdirected, .endpointIsRedirectURI: true
            default: false
            }
        case .oauth(let error):
            switch error {
            case .repeatedParameter, .noState, .stateMismatch, .issuerMismatch, .issuerMissing, .issuerNotOfEndpoint, .jarmMissing, .jarmNotJWT,
                 .jarmPayloadNotObject, .jarmClaims, .claims, .identityChanged, .discoveryIssuerMismatch, .userinfoClaims, .userinfoUnbound,
                 .userinfoNoSubject, .userinfoSubjectMismatch:
                true
            default: false
            }
        case .jarmWithoutKeys, .noKeys, .signature, .idTokenAlgorithmNotAllowed, .idTokenUnverifiable, .notSenderConstrained, .jarmRefused:
            true
        case .answerRefused(_, _, let inner), .userinfoUnverified(_, let inner), .afterRefreshRefused(let inner):
            inner.isSecurityRefusal
        default:
            false
        }
    }
}
