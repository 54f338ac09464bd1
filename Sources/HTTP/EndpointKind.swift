/// Which kind of endpoint sent a response, and so how much of its body an
/// error line may quote (BodyInMessage.swift).
package enum EndpointKind: Sendable {
    /// Login and consent pages, `--step` answers, discovery documents: an
    /// excerpt, once the run's known secrets are scrubbed (Excerpt.swift).
    case page
    /// The token endpoint (RFC 6749 §3.2), the userinfo endpoint (OIDC
    /// Core §5.3), the pushed authorization request endpoint (RFC 9126):
    /// their bodies carry tokens or personal data that the run does not
    /// know yet, so no scrubber can catch them. Never quoted, parsed or not.
    case token, userinfo, pushedAuthorization

    var name: String {
        switch self {
        case .page: "the page"
        case .token: "the token endpoint"
        case .userinfo: "the userinfo endpoint"
        case .pushedAuthorization: "the pushed authorization request endpoint"
        }
    }

    /// Why the body is not shown.
    var withheldBecause: String {
        switch self {
        case .page, .pushedAuthorization: "it may hold secrets"
        case .token: "it may hold tokens"
        case .userinfo: "it may hold personal data"
        }
    }
}
