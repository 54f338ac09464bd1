import Core

/// The JOSE header of a JWS we sign (RFC 7515 §4.1). `alg` comes from the
/// signer; a DPoP proof sets `type` "dpop+jwt" and `publicKey` (RFC 9449
/// §4.2), a request object "oauth-authz-req+jwt" (RFC 9101 §4), a client
/// assertion usually a `keyID`.
package struct JWSHeader: Sendable, Equatable {
    /// `typ`.
    package var type: String?
    /// `kid`.
    package var keyID: String?
    /// `jwk`: written with its public members only, whatever it holds.
    package var publicKey: JWK?
    /// Any other members; `alg` here is always replaced by the signer's, and
    /// `typ`, `kid`, `jwk` by the fields above when they are set.
    package var extra: [String: JSONValue]

    package init(type: String? = nil, keyID: String? = nil, publicKey: JWK? = nil, extra: [String: JSONValue] = [:]) {
        self.type = type
        self.keyID = keyID
        self.publicKey = publicKey
        self.extra = extra
    }

    /// The header's JSON text for `algorithm` (members sorted, Core/JSONValue.swift).
    package func json(algorithm: JWSAlgorithm) -> String {
        var members = extra
        members["alg"] = .string(algorithm.rawValue)
        if let type { members["typ"] = .string(type) }
        if let keyID { members["kid"] = .string(keyID) }
        if let publicKey { members["jwk"] = publicKey.publicKey.jsonValue() }
        return JSONText.serialize(.object(members))
    }
}
