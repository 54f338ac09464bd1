import Core
import HTTP

/// A Classic `sessionToken` taken to the authorization endpoint: the walk's
/// authorization request again, as it was sent (same state, nonce and PKCE
/// challenge: the first never reached an answer), with `sessionToken`
/// added — the parameter Okta's authorization servers take for a login
/// done through the Authentication API (okta-auth-js
/// lib/oidc/endpoints/authorize.ts). Okta answers with the redirect to the
/// redirect_uri, which the walk reads as usual.
enum OktaSessionToken {
    static func authorize(with token: String, in session: DriverSession, at place: String) throws(DriverError) -> DriverStep {
        guard var request = session.authorizationRequest else {
            throw .pageUnknown(provider: .okta, saw: "a sessionToken with no authorization request to take it to", at: place)
        }
        let parameter = "sessionToken=" + FormEncoding.escape(token)
        let isForm = request.headers.first(named: "Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        if request.method == .post, isForm, let body = request.body {
            request.body = body + Array(((body.isEmpty ? "" : "&") + parameter).utf8)
        } else {
            let url = ASCII.prefix(request.url, before: ASCII.hash)
            request.url = url + (ASCII.contains(url, bytes: "?") ? "&" : "?") + parameter
        }
        session.trace.info("okta: signed in; sending the authorization request again with the sessionToken")
        return .send(request)
    }
}
