import Core

/// A JWK Set (RFC 7517 §5): the keys an issuer publishes at its `jwks_uri`.
/// A member of `keys` that is not a usable key of a supported type (an
/// encryption-only X25519 key, an RSA key with a broken `n`, a string) is
/// skipped, not fatal (RFC 7517 §5: "implementations SHOULD ignore JWKs
/// within a JWK Set that use kty values that are not understood"); a
/// document that is not JSON, or not an object with a `keys` array, is.
package struct JWKSet: Sendable, Equatable {
    package let keys: [JWK]
    /// How many members of `keys` were skipped.
    package let skipped: Int

    package init(keys: [JWK], skipped: Int = 0) {
        self.keys = keys
        self.skipped = skipped
    }

    package init(json bytes: [UInt8]) throws(JOSEError) {
        guard let value = JSONValue.parse(bytes) else { throw .notJSON }
        try self.init(json: value)
    }

    package init(json value: JSONValue) throws(JOSEError) {
        guard case .array(let members)? = value["keys"] else { throw .notKeySet }
        var keys: [JWK] = []
        var skipped = 0
        for member in members {
            if let key = try? JWK(json: member) { keys.append(key) } else { skipped += 1 }
        }
        self.init(keys: keys, skipped: skipped)
    }

    package var isEmpty: Bool { keys.isEmpty }

    /// The keys whose `kid` is `kid` (RFC 7517 §4.5: unique in a set,
    /// though a set may hold one kid per `use` or `kty`).
    package func keys(withID kid: String) -> [JWK] {
        keys.filter { $0.kid == kid }
    }

    /// The set as JSON text, public parts only (to keep it in the cache).
    package var json: String {
        JSONText.serialize(.object(["keys": .array(keys.map { $0.jsonValue() })]))
    }
}
