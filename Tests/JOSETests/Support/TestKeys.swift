@testable import JOSE
import Core

/// Small helpers to build keys and sets from JSON text in tests.
enum TestKeys {
    static func jwk(_ text: String) throws -> JWK {
        try JWK(json: Array(text.utf8))
    }

    /// A key set of the public halves of `texts`.
    static func publicSet(_ texts: String...) throws -> JWKSet {
        JWKSet(keys: try texts.map { try jwk($0).publicKey })
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func decode(_ text: String) -> [UInt8] { Base64URL.decode(Substring(text)) ?? [] }

    /// `token` with its signature part replaced by `signature`.
    static func resigned(_ token: String, _ signature: [UInt8]) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
    }

    /// A compact JWS with this header JSON and payload and any signature
    /// (for rules checked before the signature).
    static func token(header: String, payload: String = "{}", signature: [UInt8] = [1, 2, 3]) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + Base64URL.encode(signature)
    }
}
