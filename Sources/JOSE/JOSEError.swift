/// Every way the JOSE layer refuses something, as one Equatable value so
/// tests assert the exact reason; the CLI words it (CLI/Errors/). No case
/// holds key material or a token; the few that carry a server's text (a
/// kid, an alg or crv name) keep it as a value, never printed as such.
package enum JOSEError: Error, Equatable, Sendable {
    // A compact JWS (RFC 7515 §7.1) that cannot be read.
    /// Not three dot-separated parts (a JWE has five; a plain string one).
    case notCompact
    /// A part that is not strict base64url (RFC 7515 §2): padding, another
    /// alphabet, stray characters or non-zero trailing bits; or an empty header.
    case badEncoding(JWSPart)
    /// The header is not a JSON object (RFC 7515 §5.2 step 3–4).
    case headerNotObject
    /// The header has no string `alg` (RFC 7515 §4.1.1).
    case missingAlgorithm
    /// A header member of the wrong type (`kid` or `typ` not a string).
    case badHeaderMember(String)

    // Verification (RFC 7515 §5.2, RFC 8725 §3).
    /// An `alg` this layer does not implement.
    case unknownAlgorithm(String)
    /// `crit` (RFC 7515 §4.1.11: we understand no extension), or a key the
    /// token brings itself (`jku`, `jwk`, `x5u`, `x5c`): never trusted.
    case refusedHeader(String)
    /// An `alg` outside the accepted set (RFC 8725 §3.1).
    case algorithmNotAccepted(JWSAlgorithm)
    /// An HMAC `alg` but no secret to check it with.
    case noSecret
    /// The header's `kid` names no key of the set (RFC 7515 §4.1.4); a new
    /// fetch of the key set may know it (rotation).
    case unknownKeyID(String)
    /// No key of the set fits the algorithm (kty, crv, use, alg, key_ops).
    case noUsableKey(JWSAlgorithm)
    /// The only fitting keys are RSA keys under 2048 bits (RFC 7518 §3.3).
    case keyTooSmall(bits: Int)
    /// The fitting keys are not valid keys (a point off its curve, …).
    case invalidKey
    /// Keys were tried and none verified the signature.
    case badSignature

    // Keys (RFC 7517).
    /// A key set or key that is not JSON at all.
    case notJSON
    /// JSON, but not `{"keys":[...]}` (RFC 7517 §5).
    case notKeySet
    /// A JWK that cannot be used as it is; the reason is our own text.
    case badKey(String)
    /// A kty or crv this layer does not implement (the name, as given).
    case unsupportedKey(String)
    /// A private key was needed and the JWK has none (no `d`).
    case notPrivateKey
    /// An encrypted PEM private key: authcode never asks for a passphrase.
    case encryptedPEM
    /// PEM text that holds no private key libcrypto can read.
    case badPEM
    /// A key set with several private keys and no kid chosen among them:
    /// the kids it has (none for a key without one).
    case ambiguousKey(kids: [String])
    /// A kid chosen that no private key of a set of several has, and the
    /// kids the set has.
    case keyIDNotInSet(String, kids: [String])
    /// A signing algorithm the key cannot make (ES256 with an RSA key, ES256 with P-384).
    case algorithmDoesNotFitKey(JWSAlgorithm)
    /// Claims to sign that are not a JSON object (RFC 7519 §7.1 step 1).
    case claimsNotObject
    /// libcrypto failed where it should not (memory).
    case cryptoFailure
}

/// The three parts of a compact JWS, named as RFC 7515 §7.1 names them.
package enum JWSPart: String, Sendable {
    case header
    case payload
    case signature
}
