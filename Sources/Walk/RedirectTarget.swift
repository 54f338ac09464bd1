import Core
import HTTP

/// Decides whether a URL is the client's redirect_uri, which authcode must
/// never fetch (ARCHITECTURE.md "The walk"): same scheme, host and port (case-insensitive
/// scheme and host, default ports equal) and the same path.
package struct RedirectTarget: Sendable {
    let uri: URIReference

    package init(_ uri: URIReference) {
        self.uri = uri
    }

    func matches(_ candidate: URIReference) -> Bool {
        guard candidate.scheme?.lowercased() == uri.scheme?.lowercased() else { return false }
        guard candidate.host == uri.host, candidate.effectivePort == uri.effectivePort else { return false }
        return Self.normalisedPath(candidate) == Self.normalisedPath(uri)
    }

    /// An empty path means `/` for http(s) URLs (RFC 9110 §4.2.3).
    private static func normalisedPath(_ reference: URIReference) -> String {
        reference.authority != nil && reference.path.isEmpty ? "/" : reference.path
    }
}
