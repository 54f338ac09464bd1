import Core
import HTTP

/// What a Keycloakify theme's app posts where the built-in themes have a
/// form the generic walk fills (keycloakify src/login/pages/{Login,
/// LoginUsername,LoginPassword,LoginOauthGrant,Terms}.tsx post Keycloak's
/// own field names to `url.loginAction`, the consent to `url.oauthAction`).
/// A login page that comes back showing an error is the login turned down,
/// with Keycloak's text.
enum KeycloakAppForms {
    static func login(on page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard let url = page.loginAction, let id = page.known else {
            throw .pageUnknown(provider: .keycloak, saw: "\(page.pageID ?? "a login page") without url.loginAction", at: page.place)
        }
        let wanted: [String] = switch id {
        case .username: ["username"]
        case .password: ["password"]
        default: ["username", "password"]
        }
        var fields: [(String, String)] = []
        var missing: [String] = []
        for name in wanted {
            if let value = session.value(for: [name]) { fields.append((name, value)) } else { missing.append(name) }
        }
        guard missing.isEmpty else { throw .credentialsMissing(provider: .keycloak, names: missing, at: page.place) }
        if id == .login { fields.append(("credentialId", "")) }
        fields.append(("login", "Sign In"))
        let request = KeycloakSubmit.request(fields, to: url, credential: true)
        let answer = try session.send(request, step: wanted.count == 2 ? "username and password" : wanted[0])
        if let again = KeycloakPage.answer(answer, to: request), again.known == id, again.showsError {
            throw .loginRejected(provider: .keycloak, text: again.message, at: Walker.place(request.url))
        }
        return .received(answer, for: request)
    }

    /// The consent page (accept) and the terms (accept), as the app posts them.
    static func accept(on page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        if page.known == .consent {
            guard let url = page.context?["url", "oauthAction"]?.stringValue.flatMap(page.page.resolve) else {
                throw .pageUnknown(provider: .keycloak, saw: "login-oauth-grant.ftl without url.oauthAction", at: page.place)
            }
            let code = page.context?["oauth", "code"]?.stringValue ?? ""
            if !code.isEmpty { session.remember(secret: code) }
            session.trace.info("keycloak: consent asked for; accepting")
            return .send(KeycloakSubmit.request([("code", code), ("accept", "Yes")], to: url, credential: false))
        }
        guard let url = page.loginAction else {
            throw .pageUnknown(provider: .keycloak, saw: "terms.ftl without url.loginAction", at: page.place)
        }
        session.trace.info("keycloak: terms and conditions; accepting")
        return .send(KeycloakSubmit.request([("accept", "Accept")], to: url, credential: false))
    }
}
