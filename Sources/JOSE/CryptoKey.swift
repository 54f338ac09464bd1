import CCrypto

/// One libcrypto key (an EVP_PKEY behind CCrypto), owned by this object and
/// freed with it. The only place JOSE touches CCrypto's keys: signatures are
/// never computed in Swift (ARCHITECTURE.md, "Constraints").
///
/// Sendable, checked by the compiler for everything but the one pointer
/// (`nonisolated(unsafe)`): it is set once and the key never changes after
/// it is made; libcrypto allows one EVP_PKEY to sign and verify on several
/// threads at once (openssl-threads(7)), which a batch's workers do with
/// one DPoP or client key.
final class CryptoKey: Sendable {
    enum Kind: Equatable {
        case rsa
        case ec(JWK.Curve)
        case ed25519
    }

    nonisolated(unsafe) private let pointer: OpaquePointer
    let kind: Kind
    let bits: Int

    private init(pointer: OpaquePointer, kind: Kind, bits: Int) {
        self.pointer = pointer
        self.kind = kind
        self.bits = bits
    }

    deinit {
        acc_key_free(pointer)
    }

    /// Takes ownership of what a CCrypto constructor made: reads its kind
    /// and size, and frees it if it is not a key of ours.
    private static func take(_ status: acc_status, _ pointer: OpaquePointer?, refused: JOSEError) throws(JOSEError) -> CryptoKey {
        guard status == ACC_OK, let pointer else {
            acc_key_free(pointer)
            throw error(for: status, refused: refused)
        }
        var type = ACC_KEY_NONE
        var curve = ACC_CURVE_NONE
        var bits: Int32 = 0
        let info = acc_key_info(pointer, &type, &curve, &bits)
        let kind: Kind? = switch (type, curve) {
        case (ACC_KEY_RSA, _): .rsa
        case (ACC_KEY_EC, ACC_CURVE_P256): .ec(.p256)
        case (ACC_KEY_EC, ACC_CURVE_P384): .ec(.p384)
        case (ACC_KEY_EC, ACC_CURVE_P521): .ec(.p521)
        case (ACC_KEY_ED25519, _): .ed25519
        default: nil
        }
        guard info == ACC_OK, let kind else {
            acc_key_free(pointer)
            throw .unsupportedKey("key type")
        }
        return CryptoKey(pointer: pointer, kind: kind, bits: Int(bits))
    }

    private static func error(for status: acc_status, refused: JOSEError) -> JOSEError {
        switch status {
        case ACC_BAD_KEY: refused
        case ACC_UNSUPPORTED: .unsupportedKey("key type")
        case ACC_ENCRYPTED: .encryptedPEM
        default: .cryptoFailure
        }
    }

    // MARK: Making keys

    /// The public key of a JWK; `.invalidKey` when libcrypto refuses it
    /// (a point not on its curve, an even modulus, …).
    static func publicKey(_ jwk: JWK) throws(JOSEError) -> CryptoKey {
        try make(jwk.parameters, secrets: [], refused: .invalidKey)
    }

    /// The private key of a JWK holding `d` (RFC 7518 §6.2.2, §6.3.2; RFC 8037 §2).
    static func privateKey(_ jwk: JWK) throws(JOSEError) -> CryptoKey {
        guard jwk.isPrivate, jwk.keyType != .oct else { throw jwk.keyType == .oct ? .unsupportedKey("oct") : .notPrivateKey }
        return try make(jwk.parameters, secrets: jwk.privateParameters.map(\.bytes),
                        refused: .badKey("libcrypto refused the key (d does not match the public part?)"))
    }

    private static func make(_ parameters: JWK.PublicParameters, secrets: [[UInt8]], refused: JOSEError) throws(JOSEError) -> CryptoKey {
        var pointer: OpaquePointer?
        let status: acc_status
        switch parameters {
        case .rsa(let n, let e):
            let values = [n, e] + secrets
            let joined = values.flatMap { $0 }
            let lengths = values.map(\.count)
            status = joined.withUnsafeBufferPointer { bytes in
                lengths.withUnsafeBufferPointer { sizes in
                    acc_rsa_key(bytes.baseAddress, sizes.baseAddress, values.count, &pointer)
                }
            }
        case .ec(let curve, let x, let y):
            let d = secrets.first ?? []
            status = x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    d.withUnsafeBufferPointer { d in
                        acc_ec_key(curve.cCurve, x.baseAddress, x.count, y.baseAddress, y.count, d.baseAddress, d.count, &pointer)
                    }
                }
            }
        case .okp(_, let x):
            let d = secrets.first ?? []
            status = x.withUnsafeBufferPointer { x in
                d.withUnsafeBufferPointer { d in
                    acc_ed25519_key(x.baseAddress, x.count, d.baseAddress, d.count, &pointer)
                }
            }
        case .oct:
            throw .unsupportedKey("oct")
        }
        return try take(status, pointer, refused: refused)
    }

    /// A private key from PEM text (PKCS#8, PKCS#1, SEC1; never encrypted).
    static func privateKey(pem: [UInt8]) throws(JOSEError) -> CryptoKey {
        guard !pem.isEmpty else { throw .badPEM }
        var pointer: OpaquePointer?
        let status = pem.withUnsafeBufferPointer { acc_pem_private_key($0.baseAddress, $0.count, &pointer) }
        return try take(status, pointer, refused: .badPEM)
    }

    /// A fresh key pair on a NIST curve (a DPoP key, RFC 9449 §5).
    static func generate(_ curve: JWK.Curve) throws(JOSEError) -> CryptoKey {
        var pointer: OpaquePointer?
        let status = acc_ec_generate(curve.cCurve, &pointer)
        return try take(status, pointer, refused: .cryptoFailure)
    }

    // MARK: Using keys

    /// The public parameters as a JWK holds them (RSA n and e minimal, EC
    /// coordinates full size).
    func publicParameters() throws(JOSEError) -> JWK.PublicParameters {
        var buffer = [UInt8](repeating: 0, count: 2 * JWK.maxModulusBytes + 2 * JWK.maxExponentBytes)
        var first = 0
        var second = 0
        let status = buffer.withUnsafeMutableBufferPointer { acc_key_public(pointer, $0.baseAddress, $0.count, &first, &second) }
        guard status == ACC_OK else { throw .cryptoFailure }
        let a = Array(buffer[0..<first])
        let b = Array(buffer[first..<(first + second)])
        switch kind {
        case .rsa: return .rsa(n: a, e: b)
        case .ec(let curve): return .ec(curve, x: a, y: b)
        case .ed25519: return .okp(.ed25519, x: a)
        }
    }

    /// Whether this key can make and check `algorithm`'s signatures.
    func fits(_ algorithm: JWSAlgorithm) -> Bool {
        switch (algorithm.keyKind, kind) {
        case (.rsa, .rsa): true
        case (.ec(let wanted), .ec(let curve)): wanted == curve
        case (.okp(.ed25519), .ed25519): true
        default: false
        }
    }

    func sign(_ message: [UInt8], algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
        guard fits(algorithm), let (scheme, hash) = algorithm.cScheme else { throw .algorithmDoesNotFitKey(algorithm) }
        return try sign(message, scheme: scheme, hash: hash)
    }

    /// An ECDSA signature in X9.62 DER (`SEQUENCE { r, s }`), the form
    /// WebAuthn carries (its §6.5.6), with the hash of an ES algorithm.
    func signDER(_ message: [UInt8], algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
        guard fits(algorithm), let (scheme, hash) = algorithm.cScheme, scheme == ACC_ECDSA else { throw .algorithmDoesNotFitKey(algorithm) }
        return try sign(message, scheme: ACC_ECDSA_DER, hash: hash)
    }

    private func sign(_ message: [UInt8], scheme: acc_scheme, hash: acc_hash) throws(JOSEError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Int(ACC_MAX_SIGNATURE_BYTES))
        var length = signature.count
        let status = message.withUnsafeBufferPointer { message in
            signature.withUnsafeMutableBufferPointer { out in
                acc_sign(pointer, scheme, hash, message.baseAddress, message.count, out.baseAddress, &length)
            }
        }
        guard status == ACC_OK else { throw .cryptoFailure }
        return Array(signature[0..<length])
    }

    /// The private scalar `d` of an EC key, at the curve's size (RFC 7518
    /// §6.2.2.1): what a passkey file keeps of a key made here.
    func privateScalar() throws(JOSEError) -> SecretBytes {
        guard case .ec(let curve) = kind else { throw .unsupportedKey("key type") }
        var d = [UInt8](repeating: 0, count: curve.size)
        var length = d.count
        let status = d.withUnsafeMutableBufferPointer { acc_ec_private(pointer, $0.baseAddress, &length) }
        guard status == ACC_OK, length == curve.size else { throw status == ACC_BAD_KEY ? .notPrivateKey : .cryptoFailure }
        return SecretBytes(d)
    }

    func verify(_ signature: [UInt8], of message: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        guard fits(algorithm), let (scheme, hash) = algorithm.cScheme else { return false }
        let status = message.withUnsafeBufferPointer { message in
            signature.withUnsafeBufferPointer { signature in
                acc_verify(pointer, scheme, hash, message.baseAddress, message.count, signature.baseAddress, signature.count)
            }
        }
        return status == ACC_OK
    }

    // MARK: HMAC (RFC 7518 §3.2), keyed with a shared secret

    static func mac(_ message: [UInt8], secret: [UInt8], algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
        guard let hash = algorithm.cMACHash else { throw .algorithmDoesNotFitKey(algorithm) }
        guard !secret.isEmpty else { throw .noSecret }
        var mac = [UInt8](repeating: 0, count: Int(ACC_MAX_HMAC_BYTES))
        var length = mac.count
        let status = secret.withUnsafeBufferPointer { secret in
            message.withUnsafeBufferPointer { message in
                mac.withUnsafeMutableBufferPointer { out in
                    acc_hmac(hash, secret.baseAddress, secret.count, message.baseAddress, message.count, out.baseAddress, &length)
                }
            }
        }
        guard status == ACC_OK else { throw .cryptoFailure }
        return Array(mac[0..<length])
    }

    /// Compared in constant time by libcrypto (CRYPTO_memcmp).
    static func macMatches(_ mac: [UInt8], of message: [UInt8], secret: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        guard let hash = algorithm.cMACHash, !secret.isEmpty else { return false }
        let status = secret.withUnsafeBufferPointer { secret in
            message.withUnsafeBufferPointer { message in
                mac.withUnsafeBufferPointer { mac in
                    acc_hmac_verify(hash, secret.baseAddress, secret.count, message.baseAddress, message.count, mac.baseAddress, mac.count)
                }
            }
        }
        return status == ACC_OK
    }
}

extension JWK.Curve {
    var cCurve: acc_curve {
        switch self {
        case .p256: ACC_CURVE_P256
        case .p384: ACC_CURVE_P384
        case .p521: ACC_CURVE_P521
        case .ed25519: ACC_CURVE_NONE
        }
    }
}

extension JWSAlgorithm {
    /// The CCrypto scheme and hash of a signature algorithm (RFC 7518 §3.3–3.5, RFC 8037 §3.1).
    var cScheme: (acc_scheme, acc_hash)? {
        switch self {
        case .rs256: (ACC_RSA_PKCS1, ACC_SHA256)
        case .rs384: (ACC_RSA_PKCS1, ACC_SHA384)
        case .rs512: (ACC_RSA_PKCS1, ACC_SHA512)
        case .ps256: (ACC_RSA_PSS, ACC_SHA256)
        case .ps384: (ACC_RSA_PSS, ACC_SHA384)
        case .ps512: (ACC_RSA_PSS, ACC_SHA512)
        case .es256: (ACC_ECDSA, ACC_SHA256)
        case .es384: (ACC_ECDSA, ACC_SHA384)
        case .es512: (ACC_ECDSA, ACC_SHA512)
        case .edDSA: (ACC_EDDSA, ACC_SHA512)
        case .hs256, .hs384, .hs512, .unsecured: nil
        }
    }

    var cMACHash: acc_hash? {
        switch self {
        case .hs256: ACC_SHA256
        case .hs384: ACC_SHA384
        case .hs512: ACC_SHA512
        default: nil
        }
    }
}
