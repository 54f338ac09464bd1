import Core
import HTTP

/// Keycloak's OTP page (login-otp.ftl) with the one-time code from
/// `--totp-secret`. An account may have several OTP devices; the page
/// offers them (v1: radios `selectedCredentialId`; v2: tiles setting a
/// hidden `selectedCredentialId`; Keycloakify: `otpLogin.userOtpCredentials`)
/// and the code is checked against the one selected
/// (OTPFormAuthenticator.validateOTP). authcode cannot tell from a seed
/// which device it belongs to, so it sends the code for the device the
/// page selects, then for each other one until one is taken — or only for
/// the one `--form selectedCredentialId=ID|LABEL` names. Each code turned
/// down counts toward brute-force detection as a person's would; a login
/// that succeeds clears the count.
enum KeycloakOTP {
    struct Device: Equatable {
        var id: String
        var label: String?
        var name: String { label.map { "'\($0)'" } ?? id }
    }

    static func answer(_ page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        let (devices, selected) = offered(on: page)
        guard session.hasOneTimeCodes else {
            if session.passkey.isAvailable, let another = KeycloakChooser.tryAnotherWay(on: page) {
                session.trace.info("keycloak: the OTP page asks for a code and there is no \(session.trace.names.totpSecret); trying another way, for the passkey")
                return .send(another)
            }
            // Without a driver the walk says which field wants the code.
            if page.context == nil { return .generic }
            throw .oneTimeCodeNeeded(provider: .keycloak, at: page.place)
        }
        if page.context == nil, devices.count < 2 { return .generic }
        let field = page.form(id: "kc-otp-login-form").flatMap { form in
            OneTimeCodeField.index(in: form, named: nil).map { form.fields[$0].name }
        } ?? "otp"
        var turnedDown: String?
        var place = page.place
        // Each answer carries the next session code: the next try posts from it.
        var current = page
        for device in ordered(devices, selected: selected, asked: session.value(for: ["selectedCredentialId"])) {
            let code = try session.oneTimeCode(at: page.place)
            var values = [NameValue(field, code)]
            if let id = device?.id { values.append(NameValue("selectedCredentialId", id)) }
            if page.context != nil { values.append(NameValue("login", "Sign In")) }
            guard let request = try KeycloakSubmit.post(on: current, form: "kc-otp-login-form", values: values, credential: true) else {
                throw .pageUnknown(provider: .keycloak, saw: "login-otp.ftl without its form", at: page.place)
            }
            let answer = try session.send(request, step: "one-time code" + (device.map { " for the OTP device \($0.name)" } ?? ""))
            guard let again = KeycloakPage.answer(answer, to: request), again.known == .otp, again.showsError else {
                return .received(answer, for: request)
            }
            turnedDown = again.message
            place = Walker.place(request.url)
            current = again
            if devices.count > 1 { session.trace.info("keycloak: the code was turned down for \(device?.name ?? "the device")") }
        }
        throw .oneTimeCodeRejected(provider: .keycloak, text: turnedDown, at: place)
    }

    /// The devices the page offers, in its order, and the one it selects.
    static func offered(on page: KeycloakPage) -> (devices: [Device], selected: String?) {
        if let context = page.context {
            guard case .array(let credentials)? = context["otpLogin", "userOtpCredentials"] else { return ([], nil) }
            let devices = credentials.compactMap { entry in entry["id"]?.stringValue.map { Device(id: $0, label: entry["userLabel"]?.stringValue) } }
            return (devices, context["otpLogin", "selectedCredentialId"]?.stringValue)
        }
        guard let form = page.form(id: "kc-otp-login-form") else { return ([], nil) }
        let choices = form.fields.filter { $0.name == "selectedCredentialId" }
        let radios = choices.filter { $0.kind == .radio }
        if !radios.isEmpty {
            return (radios.map { Device(id: $0.value, label: nil) }, radios.first(where: \.checked)?.value)
        }
        return (page.markup.otpTiles.map { Device(id: $0, label: nil) }, choices.first?.value)
    }

    /// The devices to try, in order: the one asked for by `--form
    /// selectedCredentialId` (an id or a label), else the selected one,
    /// then the others; `[nil]` when the page offers no choice.
    static func ordered(_ devices: [Device], selected: String?, asked: String?) -> [Device?] {
        guard !devices.isEmpty else { return [nil] }
        if let asked, let named = devices.first(where: { $0.id == asked || $0.label == asked }) { return [named] }
        let first = devices.first { $0.id == selected } ?? devices[0]
        return [first] + devices.filter { $0 != first }
    }
}
