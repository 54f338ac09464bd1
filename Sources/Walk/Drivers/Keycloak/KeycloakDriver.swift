import Core
import HTTP

/// Keycloak's browser login (README "Identity providers"; notes/idps.md §1): server-rendered
/// pages the generic walk fills where a form is all there is (the password
/// form of the built-in themes, one OTP device, consent, terms), and the
/// knowledge the walk lacks everywhere else: several OTP devices, "Try
/// another way", WebAuthn (§13), the required actions a person must take,
/// the error and page-expired pages, a Kerberos realm's 401, and
/// Keycloakify themes, whose pages are a script's `kcContext` and no form.
package struct KeycloakDriver: LoginDriver {
    package var provider: IdentityProvider { .keycloak }

    package init() {}

    package func recognises(_ page: DriverPage) -> Bool {
        KeycloakPage.recognises(page)
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        if KeycloakKerberos.isChallenge(page) { return try KeycloakKerberos.goOn(from: page, in: session) }
        let keycloak = KeycloakPage(page)
        if let action = KeycloakRequiredAction.stop(at: keycloak) {
            throw .requiredAction(provider: .keycloak, action: action, at: keycloak.place)
        }
        let generic = keycloak.context == nil
        switch keycloak.known {
        case .login, .username, .password:
            if session.passkey.isAvailable, keycloak.known != .password, session.value(for: ["username"]) == nil, offersPasskey(keycloak) {
                return try KeycloakPasskeys.authenticate(on: keycloak, in: session)
            }
            return generic ? .generic : try KeycloakAppForms.login(on: keycloak, in: session)
        case .otp:
            return try KeycloakOTP.answer(keycloak, in: session)
        case .selectAuthenticator:
            return try KeycloakChooser.choose(on: keycloak, in: session)
        case .webauthnAuthenticate:
            return try KeycloakPasskeys.authenticate(on: keycloak, in: session)
        case .webauthnRegister:
            return try KeycloakPasskeys.register(on: keycloak, in: session)
        case .webauthnError:
            throw .passkeyRejected(provider: .keycloak, text: keycloak.message, at: keycloak.place)
        case .consent, .terms:
            return generic ? .generic : try KeycloakAppForms.accept(on: keycloak, in: session)
        case .updatePassword, .updateProfile, .verifyEmail, .configureTOTP:
            // Named by the required-action URL above; a page met otherwise still stops.
            throw .requiredAction(provider: .keycloak, action: keycloak.pageID ?? "", at: keycloak.place)
        case .pageExpired:
            return try goOn(from: keycloak, link: keycloak.markup.links["loginContinueLink"] ?? keycloak.context?["url", "loginAction"]?.stringValue,
                            in: session, why: "the page has expired; continuing the login")
        case .info:
            if let link = infoLink(keycloak) { return try goOn(from: keycloak, link: link, in: session, why: "an info page; proceeding") }
            throw .errorPage(provider: .keycloak, text: keycloak.message, at: keycloak.place)
        case .error:
            throw .errorPage(provider: .keycloak, text: keycloak.message, at: keycloak.place)
        case nil:
            if generic { return .generic }
            throw .pageUnknown(provider: .keycloak, saw: "the Keycloakify page \(keycloak.pageID.map { "'\($0)'" } ?? "without a pageId")", at: keycloak.place)
        }
    }

    /// Whether a login page also offers passkeys (passkeys.ftl's `#webauth`
    /// form, Keycloakify's `enableWebAuthnConditionalUI`).
    private func offersPasskey(_ page: KeycloakPage) -> Bool {
        if let context = page.context { return context["enableWebAuthnConditionalUI"] == .bool(true) && context["challenge"] != nil }
        return page.form(id: "webauth") != nil
    }

    /// info.ftl's link on into the login ("proceed", `actionUri`), never
    /// one back to the application.
    private func infoLink(_ page: KeycloakPage) -> String? {
        let candidates = page.context.map { context in [context["actionUri"], context["pageRedirectUri"]].compactMap { $0?.stringValue } }
            ?? page.markup.infoLinks
        return candidates.first { link in page.page.resolve(link).flatMap { URIReference($0)?.path.contains("/login-actions/") } ?? false }
    }

    private func goOn(from page: KeycloakPage, link: String?, in session: DriverSession, why: String) throws(DriverError) -> DriverStep {
        guard let link, let url = page.page.resolve(HTMLWhitespace.trim(link)) else {
            throw .pageUnknown(provider: .keycloak, saw: "\(page.pageID ?? "a page") without its link on", at: page.place)
        }
        session.trace.info("keycloak: \(why)")
        var target = URIReference(url)
        target?.fragment = nil
        return .send(HTTPRequest(method: .get, url: target?.text ?? url))
    }
}
