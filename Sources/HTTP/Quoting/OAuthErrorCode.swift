/// An OAuth `error` code as the server sent it. Servers may send codes of
/// their own (RFC 6749 §8.5), so this is open: the registered ones the code
/// acts on are named here.
package struct OAuthErrorCode: RawRepresentable, Hashable, Sendable {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// RFC 6749 §5.2: the grant (a code, a refresh token) is invalid,
    /// expired or revoked; trying it again cannot help.
    package static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
    /// RFC 6749 §5.2: client authentication failed (unknown client, wrong
    /// secret, no secret, or a method the client is not registered for).
    package static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
}
