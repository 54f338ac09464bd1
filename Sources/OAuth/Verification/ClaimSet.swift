import Core

/// The claims of a JWT (RFC 7519 §4) — an id_token, a JARM response, a
/// signed userinfo answer — with the checks they share. Every failure is
/// exit 5 and names the claim, never its value (a token's claims are
/// personal data, and a hostile value must not reach the terminal). Times
/// are RFC 7519 §2 NumericDates: a finite JSON number, compared as a
/// Double with the clock skew added, so no value can trap (1e308, -1e999).
package struct ClaimSet: Sendable, Equatable {
    package let members: [String: JSONValue]
    /// "id_token", "JARM response", "signed userinfo": the subject of every message.
    package let what: String

    /// Nil when the payload is not a JSON object (the caller says so: exit 8).
    package init?(payload: [UInt8], what: String) {
        guard case .object(let members)? = JSONValue.parse(payload) else { return nil }
        self.members = members
        self.what = what
    }

    package subscript(name: String) -> JSONValue? { members[name] }

    func refuse(_ problem: String, hint: String? = nil) -> Failure {
        Failure(.securityCheck, "\(what) \(problem)", hint: hint)
    }

    /// `iss` is a string the expected issuer accepts.
    package func checkIssuer(_ expected: ExpectedIssuer) throws(Failure) {
        guard let iss = members["iss"] else { throw refuse("has no iss") }
        guard let text = iss.stringValue else { throw refuse("iss is not a string") }
        guard expected.accepts(text) else { throw refuse("iss is not \(expected.description)") }
    }

    /// `aud` (a string or an array of strings, RFC 7519 §4.1.3) contains
    /// the client_id; with `trusted` given, every other audience must be
    /// one of those (OIDC Core §3.1.3.7 item 3: a token for several
    /// audiences is refused unless the others are trusted).
    package func checkAudience(clientID: String, trusted: [String]?) throws(Failure) {
        guard let aud = members["aud"] else { throw refuse("has no aud") }
        let audiences: [String]
        switch aud {
        case .string(let one): audiences = [one]
        case .array(let items):
            let strings = items.compactMap(\.stringValue)
            guard strings.count == items.count else { throw refuse("aud is not a string or an array of strings") }
            audiences = strings
        default: throw refuse("aud is not a string or an array of strings")
        }
        guard audiences.contains(clientID) else { throw refuse("aud does not contain this client '\(clientID)'") }
        if let trusted, audiences.contains(where: { $0 != clientID && !trusted.contains($0) }) {
            throw refuse("aud names an audience besides this client that is not trusted",
                         hint: "If the server adds an audience of its own, name it with --trust-audience.")
        }
    }

    /// The claim as a NumericDate: nil when absent, exit 5 when present but
    /// not a finite JSON number (a string, null, 1e999).
    package func numericDate(_ name: String) throws(Failure) -> Double? {
        guard let value = members[name] else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw refuse("\(name) is not a finite JSON number") }
        return number
    }

    /// `exp` present and not past (RFC 7519 §4.1.4), with `skew` seconds of grace.
    package func checkExpiry(now: Double, skew: Double) throws(Failure) {
        guard let exp = try numericDate("exp") else { throw refuse("has no exp") }
        guard exp + skew > now else { throw refuse("has expired (exp is past, beyond \(Self.seconds(skew)) of clock skew)") }
    }

    /// `iat` not in the future beyond the skew (RFC 7519 §4.1.6); whether it was there.
    @discardableResult
    package func checkIssuedAt(now: Double, skew: Double, required: Bool) throws(Failure) -> Bool {
        guard let iat = try numericDate("iat") else {
            if required { throw refuse("has no iat") }
            return false
        }
        guard iat <= now + skew else { throw refuse("iat is in the future (beyond \(Self.seconds(skew)) of clock skew)") }
        return true
    }

    /// `nbf`, when present, not in the future beyond the skew (RFC 7519 §4.1.5); whether it was there.
    package func checkNotBefore(now: Double, skew: Double) throws(Failure) -> Bool {
        guard let nbf = try numericDate("nbf") else { return false }
        guard nbf <= now + skew else { throw refuse("is not valid yet (nbf is in the future, beyond \(Self.seconds(skew)) of clock skew)") }
        return true
    }

    /// `60 s`, `0.5 s`.
    package static func seconds(_ value: Double) -> String {
        (value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)") + " s"
    }
}
