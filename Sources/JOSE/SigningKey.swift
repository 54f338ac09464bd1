import Core

/// A private key that signs: a client's key for private_key_jwt (RFC 7523)
/// and request objects (RFC 9101), or a DPoP key (RFC 9449). Read from PEM
/// (PKCS#8, PKCS#1 RSA, SEC1 EC), from a JWK or JWK Set holding `d`, or made
/// fresh. RSA keys under 2048 bits are refused (RFC 7518 §3.3).
///
/// `description` names the key, never its private part.
package struct SigningKey: Sendable, CustomStringConvertible {
    let key: CryptoKey
    /// The public half, as a `jwk` header carries it (RFC 9449 §4.2), with
    /// the source JWK's `kid` when it had one.
    package let publicJWK: JWK
    /// The source JWK's `alg` when it names a signature algorithm this key
    /// makes; else by key type: RSA → RS256, P-256 → ES256, P-384 → ES384,
    /// P-521 → ES512, Ed25519 → EdDSA.
    package let defaultAlgorithm: JWSAlgorithm

    private init(key: CryptoKey, kid: String?, alg: String?) throws(JOSEError) {
        if key.kind == .rsa, key.bits < 2048 { throw .keyTooSmall(bits: key.bits) }
        let parameters = try key.publicParameters()
        guard let fallback = JWSAlgorithm.defaultFor(parameters) else { throw .unsupportedKey("key type") }
        self.key = key
        self.publicJWK = JWK(parameters: parameters, kid: kid)
        if let named = alg.flatMap(JWSAlgorithm.init(rawValue:)), key.fits(named) {
            self.defaultAlgorithm = named
        } else {
            self.defaultAlgorithm = fallback
        }
    }

    /// PEM text: PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`, SEC1
    /// `EC PRIVATE KEY`; an encrypted key is `.encryptedPEM`.
    package init(pem: [UInt8]) throws(JOSEError) {
        try self.init(key: CryptoKey.privateKey(pem: pem), kid: nil, alg: nil)
    }

    /// A JWK with its private part (RFC 7518 §6.2.2, §6.3.2, RFC 8037 §2).
    package init(jwk: JWK) throws(JOSEError) {
        try self.init(key: CryptoKey.privateKey(jwk), kid: jwk.kid, alg: jwk.alg)
    }

    /// A fresh key pair (DPoP without a kept key: P-256, RFC 9449 §5).
    package static func generate(curve: JWK.Curve = .p256) throws(JOSEError) -> SigningKey {
        try SigningKey(key: CryptoKey.generate(curve), kid: nil, alg: nil)
    }

    /// The contents of a key file: PEM, a JWK, or a JWK Set whose private
    /// key is the only one — whatever its own `kid`: the header's is
    /// `--client-key-id` (README "Modern client profile") — or, in a set of several, the one
    /// with `kid`.
    package static func load(_ bytes: [UInt8], selecting kid: String? = nil) throws(JOSEError) -> SigningKey {
        let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.endIndex
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: "{") else { return try SigningKey(pem: bytes) }
        guard let value = JSONValue.parse(bytes) else { throw .notJSON }
        guard value["keys"] != nil else { return try SigningKey(jwk: JWK(json: value)) }
        let candidates = try JWKSet(json: value).keys.filter { $0.isPrivate && $0.keyType != .oct }
        guard let first = candidates.first else { throw .notPrivateKey }
        if candidates.count == 1 { return try SigningKey(jwk: first) }
        let kids = candidates.compactMap(\.kid)
        guard let kid else { throw .ambiguousKey(kids: kids) }
        let chosen = candidates.filter { $0.kid == kid }
        guard chosen.count == 1 else {
            throw chosen.isEmpty ? .keyIDNotInSet(kid, kids: kids) : .ambiguousKey(kids: kids)
        }
        return try SigningKey(jwk: chosen[0])
    }

    package var kid: String? { publicJWK.kid }

    /// RFC 7638 thumbprint of the public key (a DPoP `jkt`, a default kid).
    package var thumbprint: String { publicJWK.thumbprint }

    /// Whether this key can make `algorithm` (ES256 needs P-256, …).
    package func fits(_ algorithm: JWSAlgorithm) -> Bool { key.fits(algorithm) }

    /// A raw JWS signature of `message` (ECDSA as R‖S, RFC 7518 §3.4).
    package func signature(of message: [UInt8], algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
        try key.sign(message, algorithm: algorithm)
    }

    /// An ECDSA signature in X9.62 DER, as WebAuthn sends it (its §6.5.6:
    /// COSE alg -7 is ES256 with a DER signature, not JOSE's R‖S).
    package func derSignature(of message: [UInt8], algorithm: JWSAlgorithm = .es256) throws(JOSEError) -> [UInt8] {
        try key.signDER(message, algorithm: algorithm)
    }

    /// The whole key as a JWK with `d`, for a file that keeps it (a
    /// passkey, Walk/WebAuthn/PasskeyCredential.swift): a secret, so only
    /// an EC key made or read here gives it, and its description never
    /// shows it (JWK.swift).
    package func privateJWK() throws(JOSEError) -> JWK {
        var jwk = publicJWK
        jwk.privateParameters = [try key.privateScalar()]
        return jwk
    }

    package var description: String {
        "SigningKey(\(publicJWK.description.dropFirst(4).dropLast()), \(defaultAlgorithm.rawValue))"
    }
}
