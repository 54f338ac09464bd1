import Core
import HTTP

/// Decides whether a URL is the client's redirect_uri, which authcode must
/// never fetch (ARCHITECTURE.md "The walk"): the same scheme, host, port and
/// path once both are normalised (URIReference+Equivalence.swift: case of
/// scheme and host, default ports, percent-encoding of unreserved
/// characters, dot segments). Query, fragment and userinfo do not matter:
/// whatever follows the path, the request would reach the same listener.
package struct RedirectTarget: Sendable {
    let uri: URIReference

    package init(_ uri: URIReference) {
        self.uri = uri
    }

    package func matches(_ candidate: URIReference) -> Bool {
        guard candidate.scheme?.lowercased() == uri.scheme?.lowercased() else { return false }
        guard candidate.comparableHost == uri.comparableHost, candidate.effectivePort == uri.effectivePort else { return false }
        return candidate.comparablePath == uri.comparablePath
    }

    /// `matches` for a URL given as text; text that is no URI never matches.
    package func matches(_ url: String) -> Bool {
        URIReference(url).map(matches) ?? false
    }
}
