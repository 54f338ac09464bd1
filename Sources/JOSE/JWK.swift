/// One JSON Web Key (RFC 7517 §4) of the types JWS uses here: RSA, EC on
/// the NIST curves, OKP Ed25519 (RFC 8037 §2) and oct. A pure value: no
/// libcrypto object is made until a key verifies or signs (CryptoKey), so a
/// key set is Sendable, Equatable and cheap to keep.
///
/// Numbers are held as unsigned big-endian bytes as RFC 7518 §6 defines
/// them: RSA `n` and `e` at their minimal length (leading zero bytes
/// dropped, so thumbprints are canonical), EC coordinates and `d` at the
/// curve's full size (§6.2.1.2).
package struct JWK: Sendable, Equatable {
    package enum KeyType: String, Sendable {
        case rsa = "RSA"
        case ec = "EC"
        case okp = "OKP"
        case oct
    }

    /// `crv` values: the NIST curves of RFC 7518 §6.2.1.1 and Ed25519 of RFC 8037 §2.
    package enum Curve: String, Sendable, CaseIterable {
        case p256 = "P-256"
        case p384 = "P-384"
        case p521 = "P-521"
        case ed25519 = "Ed25519"

        /// Bytes of a coordinate (EC) or of the key (Ed25519).
        package var size: Int {
            switch self {
            case .p256, .ed25519: 32
            case .p384: 48
            case .p521: 66
            }
        }
    }

    /// The public part, which is also what a thumbprint covers.
    package enum PublicParameters: Sendable, Equatable {
        case rsa(n: [UInt8], e: [UInt8])
        case ec(Curve, x: [UInt8], y: [UInt8])
        case okp(Curve, x: [UInt8])
        /// A symmetric key has no public part; its `k` is private.
        case oct
    }

    package var parameters: PublicParameters
    /// The private part, in RFC 7518 §6 order: RSA `d` (or `d p q dp dq qi`),
    /// EC or OKP `d`, oct `k`. Empty for a public key.
    package var privateParameters: [SecretBytes]
    package var kid: String?
    package var use: String?
    package var alg: String?
    package var keyOps: [String]?

    package init(parameters: PublicParameters, privateParameters: [SecretBytes] = [], kid: String? = nil,
                 use: String? = nil, alg: String? = nil, keyOps: [String]? = nil) {
        self.parameters = parameters
        self.privateParameters = privateParameters
        self.kid = kid
        self.use = use
        self.alg = alg
        self.keyOps = keyOps
    }

    package var keyType: KeyType {
        switch parameters {
        case .rsa: .rsa
        case .ec: .ec
        case .okp: .okp
        case .oct: .oct
        }
    }

    package var curve: Curve? {
        switch parameters {
        case .ec(let curve, _, _), .okp(let curve, _): curve
        case .rsa, .oct: nil
        }
    }

    package var isPrivate: Bool { !privateParameters.isEmpty }

    /// The same key without its private part (what a `jwk` header or a
    /// published key set carries).
    package var publicKey: JWK {
        var copy = self
        copy.privateParameters = []
        return copy
    }

    /// The RSA modulus size in bits; nil for other key types.
    package var rsaBits: Int? {
        guard case .rsa(let n, _) = parameters, let top = n.first else { return nil }
        return (n.count - 1) * 8 + (8 - top.leadingZeroBitCount)
    }
}

extension JWK: CustomStringConvertible, CustomDebugStringConvertible {
    /// Names the key without any of its numbers: never the private part.
    package var description: String {
        var words = [keyType.rawValue]
        if let curve { words.append(curve.rawValue) }
        if let rsaBits { words.append("\(rsaBits) bits") }
        if let kid { words.append("kid \(kid)") }
        if isPrivate { words.append("private") }
        return "JWK(" + words.joined(separator: ", ") + ")"
    }

    package var debugDescription: String { description }
}
