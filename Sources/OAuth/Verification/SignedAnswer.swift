/// Which signed answer of the server a check is about: the subject of every
/// claim or signature failure (ClaimError.swift, Flow's SignatureCheck).
package enum SignedAnswer: Equatable, Sendable {
    /// The token answer's id_token (OIDC Core §3.1.3.7).
    case idToken
    /// The authorization response as a JWT (OpenID JARM §2.3).
    case jarmResponse
    /// A userinfo answer as a JWT (OIDC Core §5.3.2).
    case signedUserinfo
}
