/// A credential public key as WebAuthn carries it: a COSE_Key (RFC 9052 §7)
/// of type EC2 on P-256 for ES256 (RFC 9053 §2.1, §7.1.1), holding `alg`
/// and nothing optional besides (WebAuthn Level 3 §6.5.1), in CTAP2
/// canonical CBOR (`CBOR.encoded`).
enum COSEKey {
    /// COSE_Key labels (RFC 9052 §7.1; RFC 9053 §7.1.1 for the EC2 ones).
    static let keyTypeLabel = 1
    static let algorithmLabel = 3
    static let curveLabel = -1
    static let xLabel = -2
    static let yLabel = -3
    /// kty EC2 (RFC 9053 §7.1), crv P-256 (§7.1 table 18).
    static let ec2 = 2
    static let p256 = 1
    /// ES256: ECDSA with SHA-256 (RFC 9053 §2.1), COSEAlgorithmIdentifier -7.
    static let es256 = -7

    /// `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`, x and y 32 bytes each.
    static func ec2P256(x: [UInt8], y: [UInt8]) -> CBOR {
        .map([
            .int(keyTypeLabel): .int(ec2),
            .int(algorithmLabel): .int(es256),
            .int(curveLabel): .int(p256),
            .int(xLabel): .bytes(x),
            .int(yLabel): .bytes(y),
        ])
    }
}
