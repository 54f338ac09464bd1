/// Verifies a compact JWS against a key set (RFC 7515 §5.2), with the rules
/// of RFC 8725 §3 (JWT BCP) made strict:
///
/// 1. `crit` is refused (§4.1.11: we understand no extension), and so are
///    `jku`, `jwk`, `x5u` and `x5c`: keys the token brings itself are
///    never trusted, so their presence is a sign of an attack (RFC 8725 §3.10).
/// 2. `alg` must be in the accepted set (RFC 8725 §3.1). `none` passes only
///    when it is the whole set (OIDC Core §2: a client registered for
///    unsigned id_tokens), and then the signature must be empty.
/// 3. HMAC algorithms are checked with the caller's secret (OIDC Core
///    §10.1: the client secret), compared in constant time.
/// 4. Otherwise the key: the ones whose `kid` is the header's (none is
///    `.unknownKeyID`, so the caller can fetch the set again once: key
///    rotation), else every key; of those, each that fits — kty and crv
///    for the algorithm, `use` absent or "sig", `alg` absent or the same,
///    `key_ops` absent or holding "verify" (RFC 7517 §4.2–4.4) — is tried
///    in turn; RSA keys under 2048 bits are never used (RFC 7518 §3.3).
package struct JWSVerifier: Sendable {
    package let keys: JWKSet
    package let algorithms: Set<JWSAlgorithm>
    private let secret: SecretBytes?

    /// Header members that are refused wherever they appear.
    package static let refusedHeaders = ["crit", "jku", "jwk", "x5u", "x5c"]
    package static let minimumRSABits = 2048

    package init(keys: JWKSet, algorithms: Set<JWSAlgorithm>, hmacSecret: [UInt8]? = nil) {
        self.keys = keys
        self.algorithms = algorithms
        self.secret = hmacSecret.map(SecretBytes.init)
    }

    package func verify(_ compact: String) throws(JOSEError) -> VerifiedJWS {
        try verify(CompactJWS(compact))
    }

    package func verify(_ jws: CompactJWS) throws(JOSEError) -> VerifiedJWS {
        for name in Self.refusedHeaders where jws.header[name] != nil {
            throw .refusedHeader(name)
        }
        guard let algorithm = jws.algorithm else { throw .unknownAlgorithm(jws.algorithmName) }
        guard algorithms.contains(algorithm) else { throw .algorithmNotAccepted(algorithm) }

        switch algorithm.keyKind {
        case .unsecured:
            guard algorithms == [.unsecured] else { throw .algorithmNotAccepted(.unsecured) }
            // RFC 7518 §3.6: the signature of an Unsecured JWS is the empty octet sequence.
            guard jws.signature.isEmpty else { throw .badSignature }
            return VerifiedJWS(jws: jws, algorithm: algorithm, key: nil)
        case .secret:
            guard let secret, !secret.bytes.isEmpty else { throw .noSecret }
            guard CryptoKey.macMatches(jws.signature, of: jws.signingInput, secret: secret.bytes, algorithm: algorithm) else {
                throw .badSignature
            }
            return VerifiedJWS(jws: jws, algorithm: algorithm, key: nil)
        case .rsa, .ec, .okp:
            return try verifyWithKeys(jws, algorithm: algorithm)
        }
    }

    private func verifyWithKeys(_ jws: CompactJWS, algorithm: JWSAlgorithm) throws(JOSEError) -> VerifiedJWS {
        var pool = keys.keys
        if let kid = jws.keyID {
            pool = keys.keys(withID: kid)
            guard !pool.isEmpty else { throw .unknownKeyID(kid) }
        }
        let fitting = pool.filter { Self.mayVerify($0, algorithm) }
        guard !fitting.isEmpty else { throw .noUsableKey(algorithm) }

        var tried = false
        var smallKeyBits: Int?
        for key in fitting {
            if let bits = key.rsaBits, bits < Self.minimumRSABits {
                smallKeyBits = bits
                continue
            }
            guard let crypto = try? CryptoKey.publicKey(key) else { continue }
            tried = true
            if crypto.verify(jws.signature, of: jws.signingInput, algorithm: algorithm) {
                return VerifiedJWS(jws: jws, algorithm: algorithm, key: key)
            }
        }
        if tried { throw .badSignature }
        if let smallKeyBits { throw .keyTooSmall(bits: smallKeyBits) }
        throw .invalidKey
    }

    /// Whether `key` may check `algorithm`'s signatures: its type and curve
    /// fit, and its own `use`, `alg` and `key_ops` allow it.
    package static func mayVerify(_ key: JWK, _ algorithm: JWSAlgorithm) -> Bool {
        algorithm.fits(key)
            && (key.use == nil || key.use == "sig")
            && (key.alg == nil || key.alg == algorithm.rawValue)
            && (key.keyOps == nil || key.keyOps!.contains("verify"))
    }
}

/// What a verified JWS is: its payload, and how it was verified (for `-v`).
package struct VerifiedJWS: Sendable, Equatable {
    package let jws: CompactJWS
    package let algorithm: JWSAlgorithm
    /// The key that verified it; nil for an HMAC or unsigned JWS.
    package let key: JWK?

    package var payload: [UInt8] { jws.payload }

    /// "signature PS256 kid k2", "signature HS256 (client secret)",
    /// "unsigned (alg none)": what `-v` reports. The kid is the server's
    /// text: the caller marks it before printing (Core/ServerText/ServerText.swift).
    package var summary: String {
        switch algorithm.keyKind {
        case .unsecured: return "unsigned (alg none)"
        case .secret: return "signature \(algorithm.rawValue) (client secret)"
        default:
            let kid = key?.kid ?? jws.keyID
            return "signature \(algorithm.rawValue)" + (kid.map { " kid \($0)" } ?? "")
        }
    }
}
