import Core

/// Reading a JWK from JSON (RFC 7517 §4, RFC 7518 §6, RFC 8037 §2). Every
/// member is checked for its type; numbers must be strict base64url and of
/// a sane size, so a hostile key set cannot make libcrypto work hard or
/// this code trap. Members this layer does not use (x5c, x5t, …) are ignored.
extension JWK {
    /// The largest RSA modulus libcrypto handles (CCrypto.h ACC_MAX_RSA_BITS).
    static let maxModulusBytes = 2048
    /// A longer public exponent is refused (CCrypto.h ACC_MAX_RSA_EXPONENT_BYTES).
    static let maxExponentBytes = 8

    package init(json bytes: [UInt8]) throws(JOSEError) {
        guard let value = JSONValue.parse(bytes) else { throw .notJSON }
        try self.init(json: value)
    }

    package init(json value: JSONValue) throws(JOSEError) {
        guard case .object(let members) = value else { throw .badKey("not a JSON object") }
        let reader = MemberReader(members: members)
        guard let kty = try reader.string("kty") else { throw .badKey("kty missing") }
        let kid = try reader.string("kid")
        let use = try reader.string("use")
        let alg = try reader.string("alg")
        let keyOps = try reader.strings("key_ops")
        let parameters: PublicParameters
        let privateParameters: [SecretBytes]
        switch kty {
        case KeyType.rsa.rawValue: (parameters, privateParameters) = try Self.rsa(reader)
        case KeyType.ec.rawValue: (parameters, privateParameters) = try Self.ec(reader)
        case KeyType.okp.rawValue: (parameters, privateParameters) = try Self.okp(reader)
        case KeyType.oct.rawValue:
            guard let k = try reader.bytes("k"), !k.isEmpty else { throw .badKey("k missing") }
            (parameters, privateParameters) = (.oct, [SecretBytes(k)])
        default: throw .unsupportedKey(kty)
        }
        self.init(parameters: parameters, privateParameters: privateParameters, kid: kid, use: use, alg: alg, keyOps: keyOps)
    }

    /// RFC 7518 §6.3: n and e; d, and either all or none of p q dp dq qi.
    private static func rsa(_ reader: MemberReader) throws(JOSEError) -> (PublicParameters, [SecretBytes]) {
        guard let n = try reader.unsigned("n"), !n.isEmpty else { throw .badKey("n missing or zero") }
        guard let e = try reader.unsigned("e"), !e.isEmpty else { throw .badKey("e missing or zero") }
        guard n.count <= maxModulusBytes else { throw .badKey("n is longer than 16384 bits") }
        guard e.count <= maxExponentBytes else { throw .badKey("e is longer than 64 bits") }
        guard reader.members["oth"] == nil else { throw .unsupportedKey("RSA oth") }
        guard let d = try reader.unsigned("d") else { return (.rsa(n: n, e: e), []) }
        guard !d.isEmpty else { throw .badKey("d is zero") }
        var crt: [SecretBytes] = []
        for name in ["p", "q", "dp", "dq", "qi"] {
            if let value = try reader.unsigned(name) { crt.append(SecretBytes(value)) }
        }
        guard crt.isEmpty || crt.count == 5 else { throw .badKey("some but not all of p, q, dp, dq, qi") }
        return (.rsa(n: n, e: e), [SecretBytes(d)] + crt)
    }

    /// RFC 7518 §6.2: crv, x, y (and d), each the curve's size. Shorter
    /// values are zero-padded on the left: the RFC asks for the full size,
    /// and some encoders drop leading zeros; the number is the same.
    private static func ec(_ reader: MemberReader) throws(JOSEError) -> (PublicParameters, [SecretBytes]) {
        guard let name = try reader.string("crv") else { throw .badKey("crv missing") }
        guard let curve = Curve(rawValue: name), curve != .ed25519 else { throw .unsupportedKey(name) }
        let x = try reader.fixed("x", size: curve.size)
        let y = try reader.fixed("y", size: curve.size)
        guard let x, let y else { throw .badKey("x or y missing") }
        let d = try reader.fixed("d", size: curve.size)
        return (.ec(curve, x: x, y: y), d.map { [SecretBytes($0)] } ?? [])
    }

    /// RFC 8037 §2: crv Ed25519, x and d exactly 32 bytes. X25519 and
    /// Ed448 are OKP too, and not signature keys here.
    private static func okp(_ reader: MemberReader) throws(JOSEError) -> (PublicParameters, [SecretBytes]) {
        guard let name = try reader.string("crv") else { throw .badKey("crv missing") }
        guard name == Curve.ed25519.rawValue else { throw .unsupportedKey(name) }
        guard let x = try reader.bytes("x"), x.count == 32 else { throw .badKey("x is not 32 bytes") }
        guard let d = try reader.bytes("d") else { return (.okp(.ed25519, x: x), []) }
        guard d.count == 32 else { throw .badKey("d is not 32 bytes") }
        return (.okp(.ed25519, x: x), [SecretBytes(d)])
    }
}

/// Typed access to a JWK's members: absent is nil, the wrong type is an error.
private struct MemberReader {
    let members: [String: JSONValue]

    func string(_ name: String) throws(JOSEError) -> String? {
        switch members[name] {
        case nil: return nil
        case .string(let value)?: return value
        default: throw .badKey("\(name) is not a string")
        }
    }

    func strings(_ name: String) throws(JOSEError) -> [String]? {
        switch members[name] {
        case nil: return nil
        case .array(let items)?:
            var out: [String] = []
            for item in items {
                guard case .string(let value) = item else { throw .badKey("\(name) is not an array of strings") }
                out.append(value)
            }
            return out
        default: throw .badKey("\(name) is not an array of strings")
        }
    }

    func bytes(_ name: String) throws(JOSEError) -> [UInt8]? {
        guard let text = try string(name) else { return nil }
        guard let bytes = StrictBase64URL.decode(Substring(text)) else { throw .badKey("\(name) is not base64url") }
        return bytes
    }

    /// An unsigned big-endian number at its minimal length (RFC 7518 §2 Base64urlUInt).
    func unsigned(_ name: String) throws(JOSEError) -> [UInt8]? {
        try bytes(name).map { Array($0.drop { $0 == 0 }) }
    }

    /// A number of exactly `size` bytes, left-padded when shorter.
    func fixed(_ name: String, size: Int) throws(JOSEError) -> [UInt8]? {
        guard let value = try bytes(name) else { return nil }
        guard !value.isEmpty, value.count <= size else { throw .badKey("\(name) is not \(size) bytes") }
        return [UInt8](repeating: 0, count: size - value.count) + value
    }
}
