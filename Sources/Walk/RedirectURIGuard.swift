import Core
import HTTP

/// The last line of "never fetch the redirect_uri" (RFC 6749 §4.1.2: the
/// answer is for the client, and a request there hands the code to whoever
/// listens): every request of a flow passes it, so no path — a discovered
/// endpoint, a `--step`, a token URL equal to the redirect_uri after
/// normalisation — reaches it. The walk stops before it and reads the answer;
/// anything else aimed there is exit 5.
package final class RedirectURIGuard: RequestAdapter, Sendable {
    let target: RedirectTarget

    package init(_ target: RedirectTarget) {
        self.target = target
    }

    package func adapt(_ request: inout HTTPRequest) throws(Failure) {
        guard target.matches(request.url) else { return }
        throw Failure(.securityCheck, "refusing to fetch \(Walker.place(request.url)): it is the redirect_uri", at: Walker.place(request.url),
                      hint: "authcode never fetches the redirect_uri; check the endpoints and --redirect-uri.")
    }

    /// Before any request of the flow: an endpoint (named by a flag or by
    /// the issuer's metadata) that is the redirect_uri.
    package func refuseEndpoints(_ endpoints: [(name: String, url: String?)]) throws(Failure) {
        for endpoint in endpoints {
            guard let url = endpoint.url, target.matches(url) else { continue }
            throw Failure(.securityCheck, "the \(endpoint.name) is the redirect_uri, which authcode never fetches", at: Walker.place(url),
                          hint: "Check --redirect-uri and the endpoints (flags or the issuer's metadata).")
        }
    }
}
