import Core
import HTTP

/// The last line of "never fetch the redirect_uri" (RFC 6749 §4.1.2: the
/// answer is for the client, and a request there hands the code to whoever
/// listens): every request of a flow passes it, so no path — a discovered
/// endpoint, a `--step`, a token URL equal to the redirect_uri after
/// normalisation — reaches it. The walk stops before it and reads the answer;
/// anything else aimed there is refused (`HTTPError.redirectURI`).
package final class RedirectURIGuard: RequestAdapter, Sendable {
    let target: RedirectTarget

    package init(_ target: RedirectTarget) {
        self.target = target
    }

    package func adapt(_ request: inout HTTPRequest) throws(HTTPError) {
        guard target.matches(request.url) else { return }
        throw .redirectURI(url: Walker.place(request.url))
    }

    /// Before any request of the flow: an endpoint (named by a flag or by
    /// the issuer's metadata) that is the redirect_uri.
    package func refuseEndpoints(_ endpoints: [(endpoint: GuardedEndpoint, url: String?)]) throws(WalkError) {
        for (endpoint, url) in endpoints {
            guard let url, target.matches(url) else { continue }
            throw .endpointIsRedirectURI(endpoint, at: Walker.place(url))
        }
    }
}
