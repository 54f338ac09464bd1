import OAuth

/// Who the client is and how it proves it (RFC 6749 §2): its id, its
/// secret, its authentication method, and the redirect URI it registered.
package struct ClientSettings: Equatable, Sendable {
    package var id = ""
    package var secret: String?
    package var authMethod: ClientAuthMethod = .none
    /// Sent byte for byte as given, in both requests; never fetched.
    package var redirectURI = ""

    package init() {}
}
