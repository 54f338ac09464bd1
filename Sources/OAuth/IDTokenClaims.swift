import Core
import HTTP
import JOSE

/// An id_token's claims and the rules of OIDC Core §3.1.3.7 (errata 2)
/// that are not about the signature: the signature is checked before these
/// are read (Flow/Verification/IDTokenCheck.swift). Each failure names the
/// claim, never its value; a token that is not a JWT, or whose payload is
/// not a JSON object, is a malformed answer.
package struct IDTokenClaims: Sendable, Equatable {
    package let claims: ClaimSet

    /// The `id_token` member of a token response (OIDC Core §3.1.3.3): a
    /// string, or nil when it is absent or null; any other JSON is a
    /// malformed answer, never silently "no id_token".
    package static func jwt(in response: JSONValue) throws(OAuthError) -> String? {
        switch response["id_token"] {
        case nil, .null?: return nil
        case .string(let jwt)?: return jwt
        default: throw .idTokenNotString
        }
    }

    /// The id_token as a compact JWS (RFC 7515 §7.1, read strictly).
    package static func parse(_ jwt: String) throws(OAuthError) -> CompactJWS {
        // RFC 7516 §7.1: five parts is an encrypted token, which needs a key
        // of the client's that authcode does not have.
        if jwt.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 4 {
            throw .idTokenEncrypted
        }
        do throws(JOSEError) {
            return try CompactJWS(jwt)
        } catch {
            throw .idTokenNotJWT(error)
        }
    }

    /// The claims of a JWS payload (verified, or not to be verified).
    package init(payload: [UInt8]) throws(OAuthError) {
        guard let claims = ClaimSet(payload: payload, what: .idToken) else {
            throw .idTokenPayloadNotObject
        }
        self.claims = claims
    }

    /// An id_token read back from the cache, verified when it was stored;
    /// nil when it cannot be read.
    package init?(stored jwt: String) {
        guard let jws = try? CompactJWS(jwt), let claims = ClaimSet(payload: jws.payload, what: .idToken) else { return nil }
        self.claims = claims
    }

    /// The `sub` claim (OIDC Core §2).
    package var subject: String? { claims["sub"]?.stringValue }

    /// Every claim rule, in the order of §3.1.3.7; returns the names of the
    /// checks that ran, for `-v` (an absent optional claim is not listed).
    package func verify(_ rules: IDTokenRules) throws(ClaimError) -> [String] {
        var ran: [String] = []
        // Items 2-3: the issuer, and the audience with no untrusted extra.
        try claims.checkIssuer(rules.issuer)
        ran.append("iss")
        try claims.checkAudience(clientID: rules.clientID, trusted: rules.trustedAudiences)
        ran.append("aud")
        // Item 5 (errata 2): azp, when present, is this client.
        if let azp = claims["azp"] {
            guard azp.stringValue == rules.clientID else { throw claims.refuse(.authorizedPartyNotClient(rules.clientID)) }
            ran.append("azp")
        }
        // Items 9-10 and RFC 7519 §4.1.5.
        try claims.checkExpiry(now: rules.now, skew: rules.skew)
        ran.append("exp")
        try claims.checkIssuedAt(now: rules.now, skew: rules.skew, required: true)
        ran.append("iat")
        if try claims.checkNotBefore(now: rules.now, skew: rules.skew) { ran.append("nbf") }
        // §2: sub is REQUIRED, a non-empty string.
        guard let sub = claims["sub"] else { throw claims.refuse(.missing("sub")) }
        guard let text = sub.stringValue, !text.isEmpty else { throw claims.refuse(.subjectNotString) }
        ran.append("sub")
        // Item 11: the nonce we sent, whenever we sent one.
        if let nonce = rules.nonce {
            guard let claim = claims["nonce"] else { throw claims.refuse(.nonceMissing) }
            guard claim.stringValue == nonce else { throw claims.refuse(.nonceMismatch) }
            ran.append("nonce")
        }
        // Item 13: max_age asks for auth_time, recent enough.
        if let maxAge = rules.maxAge {
            guard let authTime = try claims.numericDate("auth_time") else { throw claims.refuse(.authTimeMissing) }
            guard authTime + maxAge + rules.skew >= rules.now else {
                throw claims.refuse(.authTimeTooOld(skew: rules.skew))
            }
            ran.append("auth_time")
        }
        return ran
    }

    /// OIDC Core §12.2: a refreshed id_token names the same issuer, subject
    /// and audience as the one it follows, and the same azp and auth_time
    /// when it carries them. Returns what was compared, for `-v`.
    package func keepsIdentity(of stored: IDTokenClaims) throws(OAuthError) -> String {
        for name in ["iss", "sub", "aud"] where Self.normalized(claims[name]) != Self.normalized(stored.claims[name]) {
            throw .identityChanged(claim: name)
        }
        var compared = ["iss", "sub", "aud"]
        for name in ["azp", "auth_time"] where claims[name] != nil {
            guard claims[name] == stored.claims[name] else {
                throw .identityChanged(claim: name)
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
