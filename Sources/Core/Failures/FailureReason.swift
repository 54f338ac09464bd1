/// What a failure means to code that acts on it, beside the message written
/// for people (Failure.swift): behaviour is decided by switching on this,
/// never by reading the message. A failure nothing acts on has none.
package enum FailureReason: Equatable, Sendable {
    /// The token endpoint answered with an OAuth error (RFC 6749 §5.2).
    case tokenEndpoint(OAuthErrorCode)
    /// The authorization response carried `error=` (RFC 6749 §4.1.2.1).
    case authorizationServer(OAuthErrorCode)
    /// A login form's fields that nothing given fills (their names as the
    /// page has them): a batch names its record's columns beside them
    /// (Flow/Batch/BatchRunner.swift).
    case unfilledFields([String])
    /// A token answer arrived and failed a security check (its id_token):
    /// nothing in it is used, and a cache entry it refreshed is dropped.
    case answerRefused
}

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
