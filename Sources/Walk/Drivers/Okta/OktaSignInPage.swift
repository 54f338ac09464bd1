import Core
import HTTP

/// What an Okta-hosted sign-in page tells a client without running the
/// Sign-In Widget: the org renders its configuration into an inline script,
/// every string JavaScript-escaped (`-` as `\x2D`) — either
/// `var oktaData = {…"signIn":{"baseUrl":…,"stateToken":…}}` (the widget
/// reads `window.oktaData.signIn`) or, on older pages, `var stateToken =
/// '…'; var baseUrl = '…';` (Fixtures/server/replicas/okta.md, "The
/// sign-in page"). A Classic page may carry no state token at all.
struct OktaSignInPage {
    /// The transaction the page began: an Identity Engine state handle, or
    /// a Classic Authentication API state token.
    let stateToken: String?
    /// The org's base URL, where `/api/v1/authn` and `/idp/idx/` live.
    let org: String

    /// Whether the page holds the org's widget configuration: `oktaData`,
    /// or a `stateToken` variable beside the Sign-In Widget itself (a bare
    /// `var stateToken` could be anyone's script, and the driver would
    /// send the password to that page's origin).
    static func recognises(_ html: String) -> Bool {
        if ScriptValues.contains("var oktaData", in: html) { return true }
        return ScriptValues.contains("var stateToken", in: html)
            && ["OktaSignIn", "okta-sign-in", "OktaUtil"].contains { ScriptValues.contains($0, in: html) }
    }

    init?(_ page: DriverPage) {
        let html = page.html
        let token = ScriptValues.string(after: "\"stateToken\":", in: html) ?? ScriptValues.string(after: "var stateToken =", in: html)
        stateToken = token.flatMap { $0.isEmpty ? nil : $0 }
        let configured = ScriptValues.string(after: "\"baseUrl\":", in: html) ?? ScriptValues.string(after: "var baseUrl =", in: html)
        guard let org = Self.org(configured: configured, pageURL: page.url) else { return nil }
        self.org = org
    }

    /// The configured base URL when it is an absolute http(s) URL, else
    /// what precedes the page's `/login/…` or `/oauth2/…` path (an org's
    /// pages live under its base), else the page's origin.
    static func org(configured: String?, pageURL: String) -> String? {
        if let configured, let url = URIReference(configured), let scheme = url.scheme?.lowercased(),
           scheme == "https" || scheme == "http", url.authority != nil, url.query == nil {
            return configured.hasSuffix("/") ? String(configured.dropLast()) : configured
        }
        guard let page = URIReference(pageURL), let origin = page.origin else { return nil }
        let path = Array(page.path.utf8)
        for marker in ["/login/", "/oauth2/", "/idp/", "/signin/"].map({ Array($0.utf8) }) {
            if let start = path.indices.first(where: { path[$0...].starts(with: marker) }) {
                return origin + ASCII.string(path[..<start])
            }
        }
        return origin
    }
}
