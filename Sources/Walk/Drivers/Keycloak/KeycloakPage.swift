import Core
import HTTP

/// One answer of Keycloak's browser login as the driver reads it: which
/// template it is — Keycloakify's `kcContext.pageId`, or for the built-in
/// themes the form and element ids each template has — and what the driver
/// needs of it.
struct KeycloakPage {
    let page: DriverPage
    let markup: KeycloakMarkup
    /// A Keycloakify theme's data model (no form on its pages).
    let context: KeycloakContext?
    /// The template's name, raw (a Keycloakify page may name one the driver
    /// does not know); nil when the markup matches none.
    let pageID: String?

    init(_ page: DriverPage) {
        self.page = page
        markup = KeycloakMarkup(page.html)
        context = KeycloakContext(scripts: markup.scripts)
        pageID = context?.pageID ?? Self.inferredID(page.forms, markup: markup, url: page.url)
    }

    var known: KeycloakPageID? { pageID.flatMap(KeycloakPageID.init(rawValue:)) }
    var place: String { page.place }

    /// Whether an answer is a Keycloak page at all, cheaply (README "Identity providers":
    /// from what the server sent): a login-actions or authorization-endpoint
    /// path with Keycloak's markup (`kc-` ids, v2's `keycloak-bg`) or a
    /// Keycloakify `kcContext`; or Kerberos' 401 with a form posting on to
    /// login-actions.
    static func recognises(_ page: DriverPage) -> Bool {
        guard let path = URIReference(page.url)?.path,
              path.contains("/login-actions/") || path.hasSuffix("/protocol/openid-connect/auth") else { return false }
        if KeycloakKerberos.isChallenge(page) { return true }
        guard page.isHTML else { return false }
        let html = page.html
        return html.contains("id=\"kc-") || html.contains("id='kc-") || html.contains("keycloak-bg")
            || (html.contains("kcContext") && html.contains("pageId"))
    }

    func form(id: String) -> HTMLForm? { page.forms.first { $0.id == id } }

    /// A form's action resolved as a browser does (DriverPage.action).
    func action(of form: HTMLForm) -> String? {
        page.action(of: form)
    }

    /// Where Keycloakify's app posts (`url.loginAction`).
    var loginAction: String? {
        context?["url", "loginAction"]?.stringValue.flatMap(page.resolve)
    }

    /// The required action a `login-actions/required-action` page is for
    /// (its `execution` parameter, as Keycloak names the action: `UPDATE_PASSWORD`).
    var requiredAction: String? {
        guard let url = URIReference(page.url), url.path.hasSuffix("/login-actions/required-action"), let query = url.query else { return nil }
        return FormEncoding.decode(query).first { $0.0 == "execution" }?.1
    }

    /// The text a person reads as the page's message: Keycloakify's
    /// `message`; the error and info pages' own text; else the alert
    /// (LoginErrorText.swift).
    var message: String? {
        if let context { return context.message }
        for id in ["kc-error-message", "kc-info-message"] {
            if let text = markup.texts[id], !text.isEmpty { return text }
        }
        return LoginErrorText.find(in: page.html)
    }

    /// Whether the page shows an error (a field's or the page's).
    var showsError: Bool {
        if let context { return context.showsError }
        return LoginErrorText.find(in: page.html) != nil
    }

    /// The same page, the answer to `request`.
    static func answer(_ response: HTTPResponse, to request: HTTPRequest) -> KeycloakPage? {
        guard response.isSuccess, PageHandler.isHTML(response) else { return nil }
        return KeycloakPage(DriverPage(request: request, response: response, parsed: ParsedPage(response)))
    }

    /// The template a built-in theme's page renders, from its forms and ids.
    static func inferredID(_ forms: [HTMLForm], markup: KeycloakMarkup, url: String) -> String? {
        func form(_ id: String) -> HTMLForm? { forms.first { $0.id == id } }
        func has(_ form: HTMLForm?, field name: String) -> Bool { form?.fields.contains { $0.name == name } ?? false }
        if let login = form("kc-form-login") {
            if login.hasPassword { return (has(login, field: "username") ? KeycloakPageID.login : .password).rawValue }
            return KeycloakPageID.username.rawValue
        }
        let byForm: [(String, String?, KeycloakPageID)] = [
            ("kc-otp-login-form", nil, .otp), ("kc-select-credential-form", nil, .selectAuthenticator),
            ("register", "attestationObject", .webauthnRegister), ("kc-error-credential-form", nil, .webauthnError),
            ("webauth", "authenticatorData", .webauthnAuthenticate), ("kc-passwd-update-form", nil, .updatePassword),
            ("kc-update-profile-form", nil, .updateProfile), ("kc-totp-settings-form", nil, .configureTOTP),
        ]
        for (id, field, page) in byForm {
            if let found = form(id), field.map({ has(found, field: $0) }) ?? true { return page.rawValue }
        }
        if forms.contains(where: { ($0.action ?? "").contains("/login-actions/consent") }) { return KeycloakPageID.consent.rawValue }
        let byID: [(String, KeycloakPageID)] = [
            ("kc-terms-text", .terms), ("loginContinueLink", .pageExpired), ("kc-error-message", .error), ("kc-info-message", .info),
        ]
        for (id, page) in byID where markup.ids.contains(id) { return page.rawValue }
        if let query = URIReference(url)?.query, FormEncoding.decode(query).contains(where: { $0 == ("execution", "VERIFY_EMAIL") }) {
            return KeycloakPageID.verifyEmail.rawValue
        }
        return nil
    }
}
