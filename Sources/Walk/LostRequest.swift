import Core
import HTTP

/// A server that keeps the URL of the authorization request across its
/// login, not the body, loses a POST authorization request: after the
/// login it sends the browser back to the authorization endpoint with an
/// empty query (Gitea's `redirect_to` cookie holds the request URI), or its
/// login form posts to the endpoint's bare URL (AD FS). Such a redirect is
/// not followed, and such a form, refused, is not the login's end (a form
/// that carries the request in a field of its own, a `txn`, is answered);
/// the request is sent again as a GET instead (Flow/MethodFallback.swift),
/// with the cookies of the login kept.
package enum LostRequest {
    /// Whether `request` goes to the authorization endpoint of `first` (same
    /// scheme, host, port and path) carrying no `client_id` in its query or
    /// its form body: RFC 6749 §4.1.1 makes `client_id` part of every
    /// authorization request, so such a hop is not ours any more.
    static func isLost(_ request: HTTPRequest, first: HTTPRequest) -> Bool {
        guard first.method == .post, let target = URIReference(request.url), let endpoint = URIReference(first.url),
              target.withoutQuery == endpoint.withoutQuery else { return false }
        if let query = target.query, FormEncoding.decode(query).contains(where: { $0.0 == "client_id" }) { return false }
        if let body = request.body, request.headers.first(named: "Content-Type") == "application/x-www-form-urlencoded",
           FormEncoding.decode(String(decoding: body, as: UTF8.self)).contains(where: { $0.0 == "client_id" }) {
            return false
        }
        return true
    }
}
