/// The metadata members naming an endpoint authcode uses (README "How the walk works"
/// step 0): the authorization, token, userinfo and PAR endpoints, the key
/// set, and the `mtls_endpoint_aliases` of those (RFC 8705 §5). Their
/// origins are trusted with credentials (Flow/TrustedOrigins.swift). Not
/// every `*_endpoint` member: a revocation, registration or end-session
/// endpoint, or an extension nobody here knows, is nothing authcode sends
/// to, and a server listing one on another origin must not earn that
/// origin a password.
package enum TrustedEndpoints {
    static let names = [
        "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "pushed_authorization_request_endpoint",
    ]

    /// The URLs of those members in `metadata`, aliases included, in that order.
    package static func urls(in metadata: ServerMetadata) -> [String] {
        let own = [metadata.authorizationEndpoint, metadata.tokenEndpoint, metadata.userinfoEndpoint, metadata.jwksURI,
                   metadata.profile.pushedAuthorizationRequestEndpoint]
        let aliases = names.compactMap { metadata.profile.mtlsEndpointAliases[$0] }
        return own.compactMap { $0 } + aliases
    }
}
