import Core
import HTTP

/// Who must have issued a token or a signed answer (OIDC Core §3.1.3.7
/// item 2, JARM §2.4, RFC 9207 §2.4): an issuer identifier compared by
/// exact string equality, or — when no issuer is known at all (endpoints
/// given by hand, no `--expect-iss`, no `iss` in the authorization
/// response) — at least a URL of the origin that answered, so that a token
/// naming another server is never taken for this one's.
package enum ExpectedIssuer: Equatable, Sendable {
    case exact(String)
    /// An issuer of this URL's origin (scheme, host, port).
    case originOf(String)

    /// The first issuer known: `--expect-iss`, `--issuer` (which discovery
    /// made sure the metadata names), an `iss` the authorization response
    /// carried and that passed its checks; else the origin of `fallback`
    /// (the endpoint that answered).
    package static func first(_ candidates: [String?], else fallback: String) -> ExpectedIssuer {
        candidates.lazy.compactMap { $0 }.first.map(ExpectedIssuer.exact) ?? .originOf(fallback)
    }

    package func accepts(_ iss: String) -> Bool {
        switch self {
        case .exact(let issuer): iss == issuer
        case .originOf(let url): URIReference(url)?.origin.map { URIReference(iss)?.origin == $0 } ?? false
        }
    }
}
