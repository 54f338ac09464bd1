import Core
import JOSE

/// A request object (RFC 9101 §4): every authorization parameter, as
/// claims of a JWT the client signs, sent as `request` beside `client_id`
/// (§5) or pushed (RFC 9126 §3). Servers do not all check `iss`, `aud` or
/// `exp` (Glewlwyd checks none), so ours are right without their help.
package enum RequestObject {
    /// §4 and §10.8: explicit typing.
    package static let type = "oauth-authz-req+jwt"
    /// Seconds from `nbf` to `exp`: it is used at once, and FAPI 2.0
    /// Message Signing asks for at most an hour.
    package static let lifetime = 300.0

    /// - Parameters:
    ///   - parameters: the authorization request's, `client_id` and
    ///     `response_type` included (§4).
    ///   - audience: the authorization server's issuer identifier (§4).
    package static func make(parameters: [NameValue], clientID: String, audience: String, signer: JWSSigner, keyID: String?,
                             now: Double, jti: String) throws(JOSEError) -> String {
        var claims = self.claims(parameters)
        let issuedAt = now.rounded(.down)
        claims["iss"] = .string(clientID)
        claims["aud"] = .string(audience)
        claims["iat"] = .number(issuedAt)
        claims["nbf"] = .number(issuedAt)
        claims["exp"] = .number(issuedAt + lifetime)
        claims["jti"] = .string(jti)
        return try signer.sign(claims: .object(claims), header: JWSHeader(type: type, keyID: keyID))
    }

    /// Parameters as claims: strings, except a repeated `resource` (an
    /// array, RFC 8707 §2) and `authorization_details` (its JSON array,
    /// RFC 9396 §3).
    static func claims(_ parameters: [NameValue]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [:]
        let resources = parameters.filter { $0.name == "resource" }.map(\.value)
        for parameter in parameters where parameter.name != "resource" {
            if parameter.name == "authorization_details", let json = JSONValue.parse(Array(parameter.value.utf8)) {
                claims[parameter.name] = json
            } else {
                claims[parameter.name] = .string(parameter.value)
            }
        }
        if resources.count == 1 {
            claims["resource"] = .string(resources[0])
        } else if resources.count > 1 {
            claims["resource"] = .array(resources.map { .string($0) })
        }
        return claims
    }
}
