import Core
import HTTP

/// RFC 6749 §2.3.1 / OIDC Core §9 names.
package enum ClientAuthMethod: String, Sendable, Equatable, CaseIterable {
    case clientSecretBasic = "client_secret_basic"
    case clientSecretPost = "client_secret_post"
    case none
}
