import Core
import HTTP
import JOSE

/// An id_token's claims and the rules of OIDC Core §3.1.3.7 (errata 2)
/// that are not about the signature: the signature is checked before these
/// are read (Flow/Verification/IDTokenCheck.swift). Each failure is exit 5
/// and names the claim, never its value; a token that is not a JWT, or
/// whose payload is not a JSON object, is exit 8 (a malformed answer).
package struct IDTokenClaims: Sendable, Equatable {
    package let claims: ClaimSet

    /// The `id_token` member of a token response (OIDC Core §3.1.3.3): a
    /// string, or nil when it is absent or null; any other JSON is a
    /// malformed answer (exit 8), never silently "no id_token".
    package static func jwt(in response: JSONValue) throws(Failure) -> String? {
        switch response["id_token"] {
        case nil, .null?: return nil
        case .string(let jwt)?: return jwt
        default: throw Failure(.malformedResponse, "the id_token is neither a string nor null")
        }
    }

    /// The id_token as a compact JWS (RFC 7515 §7.1, read strictly).
    package static func parse(_ jwt: String) throws(Failure) -> CompactJWS {
        // RFC 7516 §7.1: five parts is an encrypted token, which needs a key
        // of the client's that authcode does not have.
        if jwt.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 4 {
            throw Failure(.malformedResponse, "the id_token is encrypted (JWE); authcode cannot check its claims")
        }
        do throws(JOSEError) {
            return try CompactJWS(jwt)
        } catch {
            throw Failure(.malformedResponse, "the id_token is not a JWT: \(error.message)")
        }
    }

    /// The claims of a JWS payload (verified, or not to be verified).
    package init(payload: [UInt8]) throws(Failure) {
        guard let claims = ClaimSet(payload: payload, what: "id_token") else {
            throw Failure(.malformedResponse, "the id_token's payload is not a JSON object")
        }
        self.claims = claims
    }

    /// An id_token read back from the cache, verified when it was stored;
    /// nil when it cannot be read.
    package init?(stored jwt: String) {
        guard let jws = try? CompactJWS(jwt), let claims = ClaimSet(payload: jws.payload, what: "id_token") else { return nil }
        self.claims = claims
    }

    /// The `sub` claim (OIDC Core §2).
    package var subject: String? { claims["sub"]?.stringValue }

    /// Every claim rule, in the order of §3.1.3.7; returns the names of the
    /// checks that ran, for `-v` (an absent optional claim is not listed).
    package func verify(_ rules: IDTokenRules) throws(Failure) -> [String] {
        var ran: [String] = []
        // Items 2-3: the issuer, and the audience with no untrusted extra.
        try claims.checkIssuer(rules.issuer)
        ran.append("iss")
        try claims.checkAudience(clientID: rules.clientID, trusted: rules.trustedAudiences)
        ran.append("aud")
        // Item 5 (errata 2): azp, when present, is this client.
        if let azp = claims["azp"] {
            guard azp.stringValue == rules.clientID else { throw claims.refuse("azp is not this client '\(rules.clientID)'") }
            ran.append("azp")
        }
        // Items 9-10 and RFC 7519 §4.1.5.
        try claims.checkExpiry(now: rules.now, skew: rules.skew)
        ran.append("exp")
        try claims.checkIssuedAt(now: rules.now, skew: rules.skew, required: true)
        ran.append("iat")
        if try claims.checkNotBefore(now: rules.now, skew: rules.skew) { ran.append("nbf") }
        // §2: sub is REQUIRED, a non-empty string.
        guard let sub = claims["sub"] else { throw claims.refuse("has no sub") }
        guard let text = sub.stringValue, !text.isEmpty else { throw claims.refuse("sub is not a non-empty string") }
        ran.append("sub")
        // Item 11: the nonce we sent, whenever we sent one.
        if let nonce = rules.nonce {
            guard let claim = claims["nonce"] else { throw claims.refuse("has no nonce, but the authorization request sent one") }
            guard claim.stringValue == nonce else { throw claims.refuse("nonce does not match the one sent in the authorization request") }
            ran.append("nonce")
        }
        // Item 13: max_age asks for auth_time, recent enough.
        if let maxAge = rules.maxAge {
            guard let authTime = try claims.numericDate("auth_time") else { throw claims.refuse("has no auth_time, but max_age was sent") }
            guard authTime + maxAge + rules.skew >= rules.now else {
                throw claims.refuse("auth_time is older than max_age allows (beyond \(ClaimSet.seconds(rules.skew)) of clock skew)")
            }
            ran.append("auth_time")
        }
        return ran
    }

    /// OIDC Core §12.2: a refreshed id_token names the same issuer, subject
    /// and audience as the one it follows, and the same azp and auth_time
    /// when it carries them. Returns what was compared, for `-v`.
    package func keepsIdentity(of stored: IDTokenClaims) throws(Failure) -> String {
        for name in ["iss", "sub", "aud"] where Self.normalized(claims[name]) != Self.normalized(stored.claims[name]) {
            throw Failure(.securityCheck, "the refreshed id_token's \(name) differs from the stored id_token's (OIDC Core §12.2)")
        }
        var compared = ["iss", "sub", "aud"]
        for name in ["azp", "auth_time"] where claims[name] != nil {
            guard claims[name] == stored.claims[name] else {
                throw Failure(.securityCheck, "the refreshed id_token's \(name) differs from the stored id_token's (OIDC Core §12.2)")
            }
            compared.append(name)
        }
        return "same " + compared.joined(separator: ", ") + " as the stored id_token"
    }

    /// `aud` as a set: `"a"` and `["a"]` name the same audience.
    static func normalized(_ value: JSONValue?) -> JSONValue? {
        guard let value else { return nil }
        switch value {
        case .string(let one): return .array([.string(one)])
        case .array(let items): return .array(items.sorted { JSONText.serialize($0) < JSONText.serialize($1) })
        default: return value
        }
    }
}

/// What an id_token must say (OIDC Core §3.1.3.7): whose, for whom, when
/// and in answer to which request.
package struct IDTokenRules: Sendable, Equatable {
    package var issuer: ExpectedIssuer
    package var clientID: String
    /// Audiences besides the client's that `--trust-audience` names.
    package var trustedAudiences: [String]
    /// The nonce the authorization request sent; nil after a refresh
    /// (OIDC Core §12.2) or when none was sent.
    package var nonce: String?
    /// `max_age` of the authorization request, in seconds.
    package var maxAge: Double?
    package var skew: Double
    /// Seconds since 1970.
    package var now: Double

    package init(issuer: ExpectedIssuer, clientID: String, trustedAudiences: [String] = [], nonce: String?, maxAge: Double? = nil,
                 skew: Double = 60, now: Double) {
        self.issuer = issuer
        self.clientID = clientID
        self.trustedAudiences = trustedAudiences
        self.nonce = nonce
        self.maxAge = maxAge
        self.skew = skew
        self.now = now
    }
}
