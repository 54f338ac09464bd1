/// Every way the JOSE layer refuses something, as one Equatable value so
/// tests assert the exact reason and the flow maps each to its exit code.
/// `message` never holds key material, a token or a value a server chose;
/// the few cases that carry a server's text (a kid, an alg or crv name)
/// keep it for the caller, who marks it before printing (Core/ServerText.swift).
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
    /// A key set with several private keys and no kid chosen among them.
    case ambiguousKey
    /// A signing algorithm the key cannot make (ES256 with an RSA key, ES256 with P-384).
    case algorithmDoesNotFitKey(JWSAlgorithm)
    /// Claims to sign that are not a JSON object (RFC 7519 §7.1 step 1).
    case claimsNotObject
    /// libcrypto failed where it should not (memory).
    case cryptoFailure

    /// One phrase for an error line, without any value from the input.
    package var message: String {
        switch self {
        case .notCompact: "not a compact JWS (three base64url parts separated by dots)"
        case .badEncoding(let part): "the JWS \(part.rawValue) is not base64url"
        case .headerNotObject: "the JWS header is not a JSON object"
        case .missingAlgorithm: "the JWS header has no alg"
        case .badHeaderMember(let name): "the JWS header member \(name) is not a string"
        case .unknownAlgorithm: "the JWS alg is not one authcode supports"
        case .refusedHeader(let name): "the JWS header carries \(name), which is refused"
        case .algorithmNotAccepted(let alg): alg == .unsecured ? "the JWS is unsigned (alg none)" : "the JWS alg \(alg.rawValue) is not accepted"
        case .noSecret: "the JWS is signed with a client secret (HMAC) and none is known"
        case .unknownKeyID: "no key of the key set has the JWS's kid"
        case .noUsableKey(let alg): "no key of the key set fits \(alg.rawValue)"
        case .keyTooSmall(let bits): "the RSA key has \(bits) bits, under the 2048 required"
        case .invalidKey: "the key that fits the JWS is not a valid key"
        case .badSignature: "the JWS signature does not verify"
        case .notJSON: "the key set is not JSON"
        case .notKeySet: "the JSON is not a key set ({\"keys\":[...]})"
        case .badKey(let reason): "the key is not usable: \(reason)"
        case .unsupportedKey: "the key type or curve is not one authcode supports"
        case .notPrivateKey: "the key holds no private part (d)"
        case .encryptedPEM: "the PEM private key is encrypted (give it unencrypted)"
        case .badPEM: "no private key could be read from the PEM text"
        case .ambiguousKey: "the key set holds several private keys; name one by its kid"
        case .algorithmDoesNotFitKey(let alg): "\(alg.rawValue) cannot be made with this key"
        case .claimsNotObject: "the claims to sign are not a JSON object"
        case .cryptoFailure: "libcrypto failed"
        }
    }
}

/// The three parts of a compact JWS, named as RFC 7515 §7.1 names them.
package enum JWSPart: String, Sendable {
    case header
    case payload
    case signature
}
