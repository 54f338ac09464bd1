import Core
import HTTP

/// Glewlwyd's login (Fixtures/glewlwyd/README.md, "The login, as Glewlwyd's
/// own app does it"): its authorization endpoint sends the browser to
/// `login.html`, a script over a JSON API. The driver does what that app
/// does — the password, the user's grant of the requested scopes, each
/// scheme the scopes still ask for (a TOTP code, a passkey) — then sends the
/// authorization request again with `g_continue`, which Glewlwyd answers with
/// the redirect to the redirect_uri.
package struct GlewlwydDriver: LoginDriver {
    package init() {}

    package var provider: IdentityProvider { .glewlwyd }

    /// The login page's URL shape (`…/login.html?client_id=…&scope=…&callback_url=…`)
    /// and the page being Glewlwyd's app.
    package func recognises(_ page: DriverPage) -> Bool {
        page.response.isSuccess && GlewlwydLoginPage(url: page.url) != nil && GlewlwydLoginPage.isLoginApp(page.html)
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let login = GlewlwydLoginPage(url: page.url) else {
            throw .pageUnknown(provider: .glewlwyd, saw: "not the login page (…/login.html with client_id, scope and callback_url)", at: page.place)
        }
        let api = GlewlwydAPI(session: session, page: login)
        let username = try logIn(api, at: page.place)
        let consent = GlewlwydConsent(api: api)
        let scopes = try consent.grantScopes()
        try consent.consentToAuthorizationDetails()
        if !scopes.isEmpty {
            try GlewlwydFactors(api: api, username: username).authenticate(scopes: scopes)
        }
        session.trace.info("glewlwyd: logged in; the authorization request again with g_continue")
        return .send(HTTPRequest(method: .get, url: login.continueURL))
    }

    /// `POST /api/auth/` with the username and password (PasswordForm.js's call).
    private func logIn(_ api: GlewlwydAPI, at place: String) throws(DriverError) -> String {
        guard let username = api.session.value(for: ["username"]), let password = api.session.value(for: ["password"]) else {
            throw .credentialsMissing(provider: .glewlwyd, names: ["username", "password"], at: place)
        }
        let body = JSONValue.object(["username": .string(username), "password": .string(password)])
        try api.expectOK(try api.call(.post, "/auth/", body, step: "password", credential: true), "/auth/")
        return username
    }
}
