import Core
import HTTP

/// Auth0's Classic Login page: Lock, configured by the tenant's settings
/// for this transaction as base64 JSON in
/// `JSON.parse(decodeURIComponent(escape(window.atob('…'))))`
/// (Fixtures/server/replicas/auth0.md, "Classic Login"; saml2aws
/// pkg/provider/auth0/auth0.go reads the same). Its `state` and `_csrf`
/// sit in `extraParams`/`internalOptions` or at the top level; both are
/// read. The configuration holds the CSRF value: nothing of it is ever
/// quoted in an error line.
struct Auth0LockPage {
    let config: JSONValue

    /// Whether the page holds Lock's encoded configuration.
    static func recognises(_ html: String) -> Bool {
        ScriptValues.contains("window.atob(", in: html)
            && (ScriptValues.contains("Auth0Lock", in: html) || ScriptValues.contains("auth0", in: html))
    }

    init?(_ html: String) {
        guard let encoded = ScriptValues.string(after: "window.atob(", in: html),
              let bytes = Base64URL.decode(Substring(encoded)), let json = JSONValue.parse(bytes),
              json["clientID"]?.nonEmptyString != nil else { return nil }
        config = json
    }

    /// A transaction parameter: Lock's `internalOptions`, then
    /// `extraParams`, then the top level.
    func parameter(_ name: String) -> String? {
        config["internalOptions"]?[name]?.stringValue ?? config["extraParams"]?[name]?.stringValue ?? config[name]?.stringValue
    }

    var clientID: String? { config["clientID"]?.nonEmptyString }
    var tenant: String? { config["auth0Tenant"]?.nonEmptyString }
    var callbackURL: String? { config["callbackURL"]?.nonEmptyString }

    /// Where Lock posts the credentials: `/usernamepassword/login` on the
    /// tenant's domain (`auth0Domain`, which may carry a path), reached
    /// with the page's own scheme.
    func loginURL(pageURL: String) -> String? {
        guard let domain = config["auth0Domain"]?.nonEmptyString, let page = URIReference(pageURL), let scheme = page.scheme,
              let url = URIReference(scheme + "://" + (domain.hasSuffix("/") ? String(domain.dropLast()) : domain) + "/usernamepassword/login"),
              url.authority != nil else { return nil }
        return url.text
    }

    /// The client's configuration file Lock loads for its connections:
    /// `<clientConfigurationBaseUrl or cdn>client/<clientID>.js`.
    func clientScriptURL(pageURL: String) -> String? {
        guard let clientID, let base = (config["clientConfigurationBaseUrl"]?.nonEmptyString ?? config["cdn"]?.nonEmptyString),
              let baseURL = URIReference(base.hasSuffix("/") ? base : base + "/"), let pageRef = URIReference(pageURL),
              let client = URIReference("client/" + FormEncoding.escape(clientID) + ".js") else { return nil }
        return client.resolved(against: baseURL.resolved(against: pageRef)).text
    }

    /// Every value here that works as a credential.
    var secrets: [String] { ["_csrf", "state"].compactMap(parameter) }
}
