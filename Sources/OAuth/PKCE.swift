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
