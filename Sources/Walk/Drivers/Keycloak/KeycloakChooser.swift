import Core
import HTTP

/// "Try another way" (`tryAnotherWay=on`) and the page it leads to,
/// select-authenticator.ftl: one choice per way the account can log in at
/// this step, each posting `authenticationExecution=<id>`
/// (DefaultAuthenticationFlow, AuthenticationSelectionResolver). The driver
/// takes the first way, in the page's order, that the run can answer: a
/// one-time code with `--totp-secret`, a passkey with `--passkey`, a
/// password with `--form password`. What a way is comes from its icon and
/// name (`kcAuthenticatorOTPClass`/`fa-mobile`, `otp-display-name`…), as a
/// person tells them apart.
enum KeycloakChooser {
    enum Method: Equatable {
        case oneTimeCode, passkey, password
        case other(String)
    }

    struct Choice: Equatable {
        var execution: String
        var method: Method
        var name: String
    }

    static func choose(on page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        let choices = offered(on: page)
        guard !choices.isEmpty else {
            throw .pageUnknown(provider: .keycloak, saw: "select-authenticator.ftl offering no way to log in", at: page.place)
        }
        let answerable = choices.first { choice in
            switch choice.method {
            case .oneTimeCode: session.hasOneTimeCodes
            case .passkey: session.passkey.isAvailable
            case .password: session.value(for: ["password"]) != nil
            case .other: false
            }
        }
        guard let chosen = answerable else {
            let names = choices.map(\.name)
            throw .factorUnsupported(provider: .keycloak, factor: names.joined(separator: " or "), at: page.place)
        }
        session.trace.info("keycloak: choosing \(chosen.name) of \(choices.map(\.name).joined(separator: ", "))")
        let fields = [("authenticationExecution", chosen.execution)]
        if let form = page.page.forms.first(where: { $0.fields.contains { $0.name == "authenticationExecution" && $0.value == chosen.execution } }),
           let url = page.action(of: form) {
            return .send(KeycloakSubmit.request(fields, to: url, credential: false))
        }
        guard let url = page.loginAction else {
            throw .pageUnknown(provider: .keycloak, saw: "select-authenticator.ftl without its form", at: page.place)
        }
        return .send(KeycloakSubmit.request(fields, to: url, credential: false))
    }

    /// The ways on, in the page's order.
    static func offered(on page: KeycloakPage) -> [Choice] {
        if let context = page.context {
            guard case .array(let selections)? = context["auth", "authenticationSelections"] else { return [] }
            return selections.compactMap { selection in
                guard let execution = selection["authExecId"]?.stringValue else { return nil }
                let key = selection["displayName"]?.stringValue ?? ""
                return Choice(execution: execution, method: method(icon: selection["iconCssClass"]?.stringValue ?? "", name: key),
                              name: displayNames[key] ?? key)
            }
        }
        let executions = page.page.forms.flatMap { form in form.fields.filter { $0.name == "authenticationExecution" }.map(\.value) }
        return executions.enumerated().map { index, execution in
            let icon = index < page.markup.choiceIcons.count ? page.markup.choiceIcons[index] : ""
            let headline = index < page.markup.choiceHeadlines.count ? page.markup.choiceHeadlines[index] : ""
            return Choice(execution: execution, method: method(icon: icon, name: headline), name: headline.isEmpty ? execution : headline)
        }
    }

    /// What a way is, from its icon classes (the theme's, or the property
    /// names Keycloak hands a theme) and its name or message key.
    static func method(icon: String, name: String) -> Method {
        let said = (icon + " " + name).lowercased()
        if said.contains("otp") || said.contains("mobile") || said.contains("authenticator application") { return .oneTimeCode }
        if said.contains("webauthn") || said.contains("passkey") || said.contains("security key") || said.contains("fa-key") { return .passkey }
        if said.contains("password") || said.contains("unlock") { return .password }
        return .other(name)
    }

    /// English names of the message keys a Keycloakify page carries
    /// (messages_en.properties), for the trace and the error line.
    static let displayNames = [
        "otp-display-name": "Authenticator Application", "webauthn-display-name": "Passkey",
        "webauthn-passwordless-display-name": "Passkey", "password-display-name": "Password",
        "auth-username-password-form-display-name": "Username and password",
    ]

    /// The "Try another way" request of a page that offers it, or nil.
    static func tryAnotherWay(on page: KeycloakPage) -> HTTPRequest? {
        if let form = page.form(id: "kc-select-try-another-way-form"), let url = page.action(of: form) {
            let fields = form.fields.filter { !$0.name.isEmpty && $0.kind == .hidden }.map { ($0.name, $0.value) }
            return KeycloakSubmit.request(fields.isEmpty ? [("tryAnotherWay", "on")] : fields, to: url, credential: false)
        }
        if page.context?["auth", "showTryAnotherWayLink"] == .bool(true), let url = page.loginAction {
            return KeycloakSubmit.request([("tryAnotherWay", "on")], to: url, credential: false)
        }
        return nil
    }
}
