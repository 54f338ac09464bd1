/// A JWT's claims refused (RFC 7519 §4, OIDC Core §3.1.3.7, JARM §2.4):
/// which answer, and what is wrong — naming the claim, never its value (a
/// token's claims are personal data, and a hostile value must not reach a
/// terminal). What is carried is ours: the expected issuer, the client_id,
/// the clock skew.
package struct ClaimError: Error, Equatable, Sendable {
    package var answer: SignedAnswer
    package var problem: ClaimProblem

    package init(_ answer: SignedAnswer, _ problem: ClaimProblem) {
        self.answer = answer
        self.problem = problem
    }
}

/// What is wrong with the claims, in the order the checks run.
package enum ClaimProblem: Equatable, Sendable {
    /// A required claim is absent: iss, aud, exp, iat, sub.
    case missing(String)
    case issuerNotString
    /// `iss` is not the issuer expected.
    case issuerNotExpected(ExpectedIssuer)
    /// `aud` is neither a string nor an array of strings.
    case audienceMalformed
    /// `aud` does not name this client_id.
    case audienceLacksClient(String)
    /// `aud` names another audience nobody trusted.
    case untrustedAudience
    /// A NumericDate claim (RFC 7519 §2) that is not a finite JSON number.
    case notNumericDate(String)
    /// `exp` is past, beyond the clock skew (seconds).
    case expired(skew: Double)
    /// `iat` is in the future, beyond the clock skew.
    case issuedInFuture(skew: Double)
    /// `nbf` is in the future, beyond the clock skew.
    case notYetValid(skew: Double)
    /// `azp` is not this client_id.
    case authorizedPartyNotClient(String)
    case subjectNotString
    case nonceMissing
    case nonceMismatch
    case authTimeMissing
    /// `auth_time` is older than `max_age` allows, beyond the clock skew.
    case authTimeTooOld(skew: Double)
}
