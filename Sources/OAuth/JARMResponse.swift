import Core
import HTTP
import JOSE

/// JWT Secured Authorization Response Mode (OpenID JARM): the answer is one
/// `response` parameter holding a JWT. It crossed the front channel, so
/// nothing in it is believed before its signature (Flow/Verification/
/// JARMCheck.swift) and then its `iss`, `aud` and `exp` (JARM §2.4) are
/// checked; only then are `code`, `state` and `error` read from it, and the
/// usual checks of the authorization response follow (ResponseChecks.swift).
package enum JARMResponse {
    /// The `response` parameter where the mode puts it (JARM §2.3): the
    /// query for `jwt` and `query.jwt` (the code flow's default), the
    /// fragment for `fragment.jwt`, the posted form for `form_post.jwt`.
    /// Missing or repeated is exit 5: an answer that is not signed is not
    /// the one asked for, and its code is not redeemed.
    package static func jwt(in fields: [(String, String)], mode: ResponseMode, at location: String) throws(Failure) -> String {
        let values = fields.filter { $0.0 == "response" }.map(\.1)
        guard values.count <= 1 else {
            throw Failure(.securityCheck, "the authorization response has 'response' more than once; refusing to guess which is real", at: location)
        }
        guard let jwt = values.first, !jwt.isEmpty else {
            throw Failure(.securityCheck, "the authorization response has no JARM 'response' parameter (--response-mode \(mode.rawValue)); the code is not redeemed",
                          at: location)
        }
        return jwt
    }

    /// The fields of a redirect the mode reads: its fragment for
    /// `fragment.jwt`, else its query.
    package static func fields(of redirect: URIReference, mode: ResponseMode) -> [(String, String)] {
        let part = mode == .fragmentJWT ? redirect.fragment : redirect.query
        return part.map { FormEncoding.decode($0) } ?? []
    }

    /// The compact JWS, strictly parsed; anything else is exit 5 (JARM §2.4:
    /// a response that does not validate is rejected).
    package static func parse(_ jwt: String, at location: String) throws(Failure) -> CompactJWS {
        do throws(JOSEError) {
            return try CompactJWS(jwt)
        } catch {
            throw Failure(.securityCheck, "the JARM response is not a JWT: \(error.message); the code is not redeemed", at: location)
        }
    }

    /// After the signature: `iss`, `aud` and `exp` checked (JARM §2.4
    /// steps 1-3), then the answer's fields read from the claims.
    package static func response(payload: [UInt8], issuer: ExpectedIssuer, clientID: String, now: Double, skew: Double,
                                 at location: String) throws(Failure) -> AuthorizationResponse {
        guard let claims = ClaimSet(payload: payload, what: "JARM response") else {
            throw Failure(.securityCheck, "the JARM response's payload is not a JSON object; the code is not redeemed", at: location)
        }
        do throws(Failure) {
            try claims.checkIssuer(issuer)
            try claims.checkAudience(clientID: clientID, trusted: nil)
            try claims.checkExpiry(now: now, skew: skew)
        } catch {
            throw Failure(.securityCheck, error.message + "; the code is not redeemed", at: location, hint: error.hint)
        }
        let names = ["code", "state", "iss", "error", "error_description"]
        let fields = names.compactMap { name in claims[name]?.stringValue.map { (name, $0) } }
        return try AuthorizationResponse(fields: fields, where: location)
    }
}
