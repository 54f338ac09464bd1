import Core

/// Who the client is at the token endpoint, and how it proves it (RFC 6749
/// §2.3.1): the same for every grant of a run.
package struct ClientCredentials: Equatable, Sendable {
    package var id: String
    package var secret: String?
    package var method: ClientAuthMethod

    package init(id: String, secret: String?, method: ClientAuthMethod) {
        self.id = id
        self.secret = secret
        self.method = method
    }
}
