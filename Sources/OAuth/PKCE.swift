import Core
import HTTP

/// Proof Key for Code Exchange (RFC 7636).
package enum PKCEMethod: String, Sendable, Equatable, CaseIterable {
    case s256 = "S256"
    case plain
    case off
}

package struct PKCE: Equatable, Sendable {
    package let verifier: String
    let challenge: String
    let method: PKCEMethod

    /// A verifier of 32 random bytes, 43 base64url characters (RFC 7636 §4.1
    /// asks for 43 to 128 from the unreserved set; base64url is a subset).
    init(method: PKCEMethod, randomBytes: [UInt8]) {
        self.method = method
        verifier = Base64URL.encode(randomBytes)
        switch method {
        case .s256: challenge = Base64URL.encode(SHA256.hash(verifier.utf8))
        case .plain: challenge = verifier
        case .off: challenge = ""
        }
    }
}

/// Fresh random bytes from the system generator (getrandom on Linux).
package enum Randomness {
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// 128 bits, base64url: for `state` and `nonce`.
    static func token() -> String {
        Base64URL.encode(bytes(16))
    }
}
