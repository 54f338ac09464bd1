import Core
import HTTP

/// RFC 6749 §2.3.1 / OIDC Core §9 names, and RFC 8705 §2's two mTLS methods.
package enum ClientAuthMethod: String, Sendable, Equatable, CaseIterable {
    case clientSecretBasic = "client_secret_basic"
    case clientSecretPost = "client_secret_post"
    case none
    /// RFC 7523 §2.2 assertion MACed with the client secret (OIDC Core §9).
    case clientSecretJWT = "client_secret_jwt"
    /// RFC 7523 §2.2 assertion signed with the client's private key.
    case privateKeyJWT = "private_key_jwt"
    /// RFC 8705 §2.1: a certificate from a CA; the request carries client_id only.
    case tlsClientAuth = "tls_client_auth"
    /// RFC 8705 §2.2: a self-signed certificate registered with the client.
    case selfSignedTLSClientAuth = "self_signed_tls_client_auth"

    /// Methods that prove the client with the client secret.
    package var usesSecret: Bool {
        [.clientSecretBasic, .clientSecretPost, .clientSecretJWT].contains(self)
    }

    /// Methods that prove the client with its TLS certificate (`--cert`).
    package var usesCertificate: Bool {
        self == .tlsClientAuth || self == .selfSignedTLSClientAuth
    }
}
