import Core

/// Writing a JWK (a DPoP proof's `jwk` header, RFC 9449 §4.2; a key set
/// kept in the cache) and its RFC 7638 thumbprint.
extension JWK {
    /// The RFC 7638 §3.2 input: the required members only, in
    /// lexicographic order, no white space. The values are base64url and
    /// fixed names, so nothing needs escaping.
    package var thumbprintInput: String {
        switch parameters {
        case .rsa(let n, let e):
            return #"{"e":"\#(Base64URL.encode(e))","kty":"RSA","n":"\#(Base64URL.encode(n))"}"#
        case .ec(let curve, let x, let y):
            return #"{"crv":"\#(curve.rawValue)","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
        case .okp(let curve, let x):
            return #"{"crv":"\#(curve.rawValue)","kty":"OKP","x":"\#(Base64URL.encode(x))"}"#
        case .oct:
            return #"{"k":"\#(Base64URL.encode(privateParameters.first?.bytes ?? []))","kty":"oct"}"#
        }
    }

    /// The SHA-256 JWK thumbprint, base64url (RFC 7638 §3; RFC 9449 §6.1 `jkt`).
    package var thumbprint: String {
        Base64URL.encode(SHA256.hash(Array(thumbprintInput.utf8)))
    }

    /// The key as a JSON object: public members, kid/use/alg/key_ops when
    /// set, and the private members only when asked for.
    package func jsonValue(includingPrivate: Bool = false) -> JSONValue {
        var members: [String: JSONValue] = ["kty": .string(keyType.rawValue)]
        func put(_ name: String, _ bytes: [UInt8]) { members[name] = .string(Base64URL.encode(bytes)) }
        let privateNames: [String]
        switch parameters {
        case .rsa(let n, let e):
            put("n", n)
            put("e", e)
            privateNames = ["d", "p", "q", "dp", "dq", "qi"]
        case .ec(let curve, let x, let y):
            members["crv"] = .string(curve.rawValue)
            put("x", x)
            put("y", y)
            privateNames = ["d"]
        case .okp(let curve, let x):
            members["crv"] = .string(curve.rawValue)
            put("x", x)
            privateNames = ["d"]
        case .oct:
            privateNames = ["k"]
        }
        if includingPrivate {
            for (name, value) in zip(privateNames, privateParameters) { put(name, value.bytes) }
        }
        if let kid { members["kid"] = .string(kid) }
        if let use { members["use"] = .string(use) }
        if let alg { members["alg"] = .string(alg) }
        if let keyOps { members["key_ops"] = .array(keyOps.map(JSONValue.string)) }
        return .object(members)
    }

    /// Compact JSON text of `jsonValue` (members sorted, Core/JSONValue.swift).
    package func json(includingPrivate: Bool = false) -> String {
        JSONText.serialize(jsonValue(includingPrivate: includingPrivate))
    }
}
