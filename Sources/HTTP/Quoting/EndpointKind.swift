/// Which kind of endpoint sent a response, and so how much of its body an
/// error line may quote (BodyQuote.swift).
package enum EndpointKind: Equatable, Sendable {
    /// Login and consent pages, `--step` answers, discovery documents: an
    /// excerpt, once the run's known secrets are scrubbed.
    case page
    /// The token endpoint (RFC 6749 §3.2), the userinfo endpoint (OIDC
    /// Core §5.3), the pushed authorization request endpoint (RFC 9126):
    /// their bodies carry tokens or personal data that the run does not
    /// know yet, so no scrubber can catch them. Never quoted, parsed or not.
    case token, userinfo, pushedAuthorization
}
