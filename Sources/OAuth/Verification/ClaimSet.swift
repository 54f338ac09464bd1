import Core

/// The claims of a JWT (RFC 7519 §4) — an id_token, a JARM response, a
/// signed userinfo answer — with the checks they share. Every failure is a
/// `ClaimError` naming the claim, never its value (a token's claims are
/// personal data, and a hostile value must not reach the terminal). Times
/// are RFC 7519 §2 NumericDates: a finite JSON number, compared as a
/// Double with the clock skew added, so no value can trap (1e308, -1e999).
package struct ClaimSet: Sendable, Equatable {
    package let members: [String: JSONValue]
    /// The subject of every refusal.
    package let what: SignedAnswer

    /// Nil when the payload is not a JSON object (the caller says so).
    package init?(payload: [UInt8], what: SignedAnswer) {
        guard case .object(let members)? = JSONValue.parse(payload) else { return nil }
        self.members = members
        self.what = what
    }

    package subscript(name: String) -> JSONValue? { members[name] }

    func refuse(_ problem: ClaimProblem) -> ClaimError {
        ClaimError(what, problem)
    }

    /// `iss` is a string the expected issuer accepts.
    package func checkIssuer(_ expected: ExpectedIssuer) throws(ClaimError) {
        guard let iss = members["iss"] else { throw refuse(.missing("iss")) }
        guard let text = iss.stringValue else { throw refuse(.issuerNotString) }
        guard expected.accepts(text) else { throw refuse(.issuerNotExpected(expected)) }
    }

    /// `aud` (a string or an array of strings, RFC 7519 §4.1.3) contains
    /// the client_id; with `trusted` given, every other audience must be
    /// one of those (OIDC Core §3.1.3.7 item 3: a token for several
    /// audiences is refused unless the others are trusted).
    package func checkAudience(clientID: String, trusted: [String]?) throws(ClaimError) {
        guard let aud = members["aud"] else { throw refuse(.missing("aud")) }
        let audiences: [String]
        switch aud {
        case .string(let one): audiences = [one]
        case .array(let items):
            let strings = items.compactMap(\.stringValue)
            guard strings.count == items.count else { throw refuse(.audienceMalformed) }
            audiences = strings
        default: throw refuse(.audienceMalformed)
        }
        guard audiences.contains(clientID) else { throw refuse(.audienceLacksClient(clientID)) }
        if let trusted, audiences.contains(where: { $0 != clientID && !trusted.contains($0) }) {
            throw refuse(.untrustedAudience)
        }
    }

    /// The claim as a NumericDate: nil when absent, refused when present but
    /// not a finite JSON number (a string, null, 1e999).
    package func numericDate(_ name: String) throws(ClaimError) -> Double? {
        guard let value = members[name] else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw refuse(.notNumericDate(name)) }
        return number
    }

    /// `exp` present and not past (RFC 7519 §4.1.4), with `skew` seconds of grace.
    package func checkExpiry(now: Double, skew: Double) throws(ClaimError) {
        guard let exp = try numericDate("exp") else { throw refuse(.missing("exp")) }
        guard exp + skew > now else { throw refuse(.expired(skew: skew)) }
    }

    /// `iat` not in the future beyond the skew (RFC 7519 §4.1.6); whether it was there.
    @discardableResult
    package func checkIssuedAt(now: Double, skew: Double, required: Bool) throws(ClaimError) -> Bool {
        guard let iat = try numericDate("iat") else {
            if required { throw refuse(.missing("iat")) }
            return false
        }
        guard iat <= now + skew else { throw refuse(.issuedInFuture(skew: skew)) }
        return true
    }

    /// `nbf`, when present, not in the future beyond the skew (RFC 7519 §4.1.5); whether it was there.
    package func checkNotBefore(now: Double, skew: Double) throws(ClaimError) -> Bool {
        guard let nbf = try numericDate("nbf") else { return false }
        guard nbf <= now + skew else { throw refuse(.notYetValid(skew: skew)) }
        return true
    }
}
