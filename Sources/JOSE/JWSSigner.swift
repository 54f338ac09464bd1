import Core

/// Makes compact JWS (RFC 7515 §5.1, §7.1): with a private key (any
/// asymmetric algorithm the key fits) or a shared secret (HS256/384/512,
/// client_secret_jwt, RFC 7523 §2.2 with OIDC Core §9).
package struct JWSSigner: Sendable {
    private enum Key: Sendable {
        case privateKey(SigningKey)
        case secret(SecretBytes)
    }

    private let key: Key
    package let algorithm: JWSAlgorithm

    /// `algorithm` defaults to the key's (SigningKey.defaultAlgorithm).
    package init(key: SigningKey, algorithm: JWSAlgorithm? = nil) throws(JOSEError) {
        let algorithm = algorithm ?? key.defaultAlgorithm
        guard key.fits(algorithm) else { throw .algorithmDoesNotFitKey(algorithm) }
        self.key = .privateKey(key)
        self.algorithm = algorithm
    }

    package init(secret: [UInt8], algorithm: JWSAlgorithm = .hs256) throws(JOSEError) {
        guard algorithm.keyKind == .secret else { throw .algorithmDoesNotFitKey(algorithm) }
        guard !secret.isEmpty else { throw .noSecret }
        self.key = .secret(SecretBytes(secret))
        self.algorithm = algorithm
    }

    /// BASE64URL(header) '.' BASE64URL(payload) '.' BASE64URL(signature).
    package func sign(payload: [UInt8], header: JWSHeader = JWSHeader()) throws(JOSEError) -> String {
        let input = Base64URL.encode(Array(header.json(algorithm: algorithm).utf8)) + "." + Base64URL.encode(payload)
        let signature: [UInt8] = switch key {
        case .privateKey(let key): try key.signature(of: Array(input.utf8), algorithm: algorithm)
        case .secret(let secret): try CryptoKey.mac(Array(input.utf8), secret: secret.bytes, algorithm: algorithm)
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// A JWT (RFC 7519 §7.1): `claims` must be a JSON object.
    package func sign(claims: JSONValue, header: JWSHeader = JWSHeader()) throws(JOSEError) -> String {
        guard case .object = claims else { throw .claimsNotObject }
        return try sign(payload: Array(JSONText.serialize(claims).utf8), header: header)
    }
}
