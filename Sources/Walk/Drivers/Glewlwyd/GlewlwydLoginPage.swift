import Core
import HTTP

/// Glewlwyd's login page as its authorization endpoint sends the browser
/// there: `login.html?client_id=…&scope=…&callback_url=<the authorization
/// request>` (Fixtures/glewlwyd/README.md, "The login, as Glewlwyd's own app
/// does it"). The page itself is a script; what it does comes from these
/// query parameters, so they are all the driver needs of it.
struct GlewlwydLoginPage: Equatable {
    let clientID: String
    /// The requested scopes, as the page's `scope` parameter lists them.
    let scopes: [String]
    /// The authorization request to send again, with `g_continue`, once the
    /// session holds every factor the scopes ask for.
    let callbackURL: String
    /// Where the login API is: `api/` beside the page (Glewlwyd's default
    /// `api_prefix`; the app reads it from `/config`, one request more).
    let apiBase: String
    /// The page's origin: WebAuthn's clientDataJSON names it.
    let origin: String
    /// The types of the request's `authorization_details` (RFC 9396) the
    /// page asks the user to consent to, and the OIDC plugin that asks.
    let authorizationDetailTypes: [String]
    let plugin: String?

    /// Nil unless the URL has the login page's shape: a path ending in
    /// `/login.html` with the `client_id` and `callback_url` the
    /// authorization endpoint puts there (and `scope` when it had one).
    init?(url: String) {
        guard let reference = URIReference(url), reference.path.hasSuffix("/login.html"), let query = reference.query,
              let origin = reference.origin else { return nil }
        let fields = FormEncoding.decode(query)
        func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }
        guard let client = field("client_id"), !client.isEmpty, let callback = field("callback_url"),
              let callbackReference = URIReference(callback), callbackReference.isAbsolute else { return nil }
        clientID = client
        // A request without scope has none here; the app then checks no grant and no scheme.
        scopes = (field("scope") ?? "").split(separator: " ").map(String.init)
        callbackURL = callback
        apiBase = String(reference.withoutQuery.dropLast("login.html".count)) + "api"
        self.origin = origin
        authorizationDetailTypes = (field("authorization_details") ?? "").split(separator: ",").map(String.init)
        plugin = field("plugin").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the page's text is Glewlwyd's login app (its description, its
    /// title or its script), so a `login.html` of another product with the
    /// same parameters is not taken.
    static func isLoginApp(_ html: String) -> Bool {
        let lower = html.lowercased()
        return lower.contains("glewlwyd") || lower.contains("src=\"login.js\"")
    }

    /// The authorization request again, with `g_continue` added as the app's
    /// continue button does (any value is read as set).
    var continueURL: String {
        callbackURL + (callbackURL.contains("?") ? "&" : "?") + "g_continue"
    }

    /// The scopes as one path segment or query value: space as `%20`
    /// (JavaScript's encodeURIComponent, which the app uses).
    var scopeComponent: String { Self.component(scopes.joined(separator: " ")) }

    static func component(_ text: String) -> String {
        FormEncoding.escape(text).split(separator: "+", omittingEmptySubsequences: false).joined(separator: "%20")
    }
}
