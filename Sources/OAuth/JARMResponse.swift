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
    /// Missing or repeated is refused: an answer that is not signed is not
    /// the one asked for, and its code is not redeemed.
    package static func jwt(in fields: [(String, String)], mode: ResponseMode, at location: String) throws(OAuthError) -> String {
        let values = fields.filter { $0.0 == "response" }.map(\.1)
        guard values.count <= 1 else {
            throw .repeatedParameter("response", at: location)
        }
        guard let jwt = values.first, !jwt.isEmpty else {
            throw .jarmMissing(mode, at: location)
        }
        return jwt
    }

    /// The fields of a redirect the mode reads: its fragment for
    /// `fragment.jwt`, else its query.
    package static func fields(of redirect: URIReference, mode: ResponseMode) -> [(String, String)] {
        let part = mode == .fragmentJWT ? redirect.fragment : redirect.query
        return part.map { FormEncoding.decode($0) } ?? []
    }

    /// The compact JWS, strictly parsed; anything else is refused (JARM §2.4:
    /// a response that does not validate is rejected).
    package static func parse(_ jwt: String, at location: String) throws(OAuthError) -> CompactJWS {
        do throws(JOSEError) {
            return try CompactJWS(jwt)
        } catch {
            throw .jarmNotJWT(error, at: location)
        }
    }

    /// After the signature: `iss`, `aud` and `exp` checked (JARM §2.4
    /// steps 1-3), then the answer's fields read from the claims.
    package static func response(payload: [UInt8], issuer: ExpectedIssuer, clientID: String, now: Double, skew: Double,
                                 at location: String) throws(OAuthError) -> AuthorizationResponse {
        guard let claims = ClaimSet(payload: payload, what: .jarmResponse) else {
            throw .jarmPayloadNotObject(at: location)
        }
        do throws(ClaimError) {
            try claims.checkIssuer(issuer)
            try claims.checkAudience(clientID: clientID, trusted: nil)
            try claims.checkExpiry(now: now, skew: skew)
        } catch {
            throw .jarmClaims(error, at: location)
        }
        let names = ["code", "state", "iss", "error", "error_description"]
        let fields = names.compactMap { name in claims[name]?.stringValue.map { (name, $0) } }
        return try AuthorizationResponse(fields: fields, where: location)
    }
}
