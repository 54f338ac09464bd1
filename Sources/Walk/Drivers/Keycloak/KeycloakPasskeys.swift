import Core
import HTTP

/// Keycloak's WebAuthn pages answered with the run's passkey (README "Passkeys"):
/// webauthn-authenticate.ftl (second factor and passwordless), passkeys on
/// the username page (passkeys.ftl, conditional UI), and the
/// webauthn-register required action. Keycloak writes what
/// `navigator.credentials.get`/`create` need as literals in the page's
/// script (base/login/resources/js/webauthnAuthenticate.js and
/// webauthnRegister.js take them: `challenge`, `rpId`,
/// `userVerification`…), the allowed credentials as `#authn_select`'s
/// `authn_use_chk` inputs; Keycloakify as members of `kcContext`. The
/// answer goes into the hidden fields of `#webauth` / `#register`,
/// base64url without padding, as those scripts post it.
enum KeycloakPasskeys {
    /// webauthn-authenticate.ftl, or a username page's passkey form.
    static func authenticate(on page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard session.passkey.isAvailable else {
            if session.hasOneTimeCodes || session.value(for: ["password"]) != nil, let another = KeycloakChooser.tryAnotherWay(on: page) {
                session.trace.info("keycloak: the login asks for a passkey and there is no \(session.trace.names.passkey); trying another way")
                return .send(another)
            }
            throw .passkey(.noPasskey, at: page.place)
        }
        let values = PageValues(page)
        guard let challenge = values.string("challenge").flatMap({ Base64URL.decode($0[...]) }), let origin = page.page.origin else {
            throw .pageUnknown(provider: .keycloak, saw: "\(page.pageID ?? "a WebAuthn page") without a challenge", at: page.place)
        }
        let identified = values.flag("isUserIdentified") ?? false
        // webauthnAuthenticate.js: a user not yet identified is asked for
        // any discoverable credential; else for one of theirs.
        let allowed = identified ? allowedCredentials(on: page) : []
        let request = AssertionRequest(challenge: challenge, origin: origin, rpID: values.string("rpId").flatMap { $0.isEmpty ? nil : $0 },
                                       allowCredentials: allowed, userVerification: UserVerification(values.string("userVerification")))
        session.trace.info("keycloak: passkey asked for (rpId \(request.rpID ?? "of the page"), \(allowed.count) allowed credential\(allowed.count == 1 ? "" : "s"))")
        let answer: AssertionResponse
        do {
            answer = try session.passkey.get(request)
        } catch {
            throw .passkey(error, at: page.place)
        }
        let fields = [("clientDataJSON", answer.clientDataJSON), ("authenticatorData", answer.authenticatorData),
                      ("signature", answer.signature), ("credentialId", answer.credentialID), ("userHandle", answer.userHandle)]
            .map { NameValue($0.0, Base64URL.encode($0.1)) } + [NameValue("error", "")]
        for field in fields where !field.value.isEmpty { session.remember(secret: field.value) }
        guard let post = try KeycloakSubmit.post(on: page, form: "webauth", values: fields, credential: true) else {
            throw .pageUnknown(provider: .keycloak, saw: "\(page.pageID ?? "a WebAuthn page") without its form", at: page.place)
        }
        return .received(try session.send(post, step: "passkey assertion (signCount \(answer.signCount))"), for: post)
    }

    /// The webauthn-register (and -passwordless) required action.
    static func register(on page: KeycloakPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        let values = PageValues(page)
        guard let challenge = values.string("challenge").flatMap({ Base64URL.decode($0[...]) }),
              let userID = values.string("userid").flatMap({ Base64URL.decode($0[...]) }), let origin = page.page.origin else {
            throw .pageUnknown(provider: .keycloak, saw: "webauthn-register.ftl without a challenge or user id", at: page.place)
        }
        let username = values.string("username") ?? ""
        let excluded = (values.string("excludeCredentialIds") ?? "").split(separator: ",").compactMap { Base64URL.decode($0) }
        let request = RegistrationRequest(challenge: challenge, origin: origin, rpID: values.string("rpId").flatMap { $0.isEmpty ? nil : $0 },
                                          user: .init(id: userID, name: username, displayName: username),
                                          algorithms: values.integers("signatureAlgorithms"), excludeCredentials: excluded,
                                          userVerification: UserVerification(values.string("userVerificationRequirement")))
        session.trace.info("keycloak: the login asks to register a passkey (rpId \(request.rpID ?? "of the page"))")
        let made: RegistrationResponse
        do {
            made = try session.passkey.create(request)
        } catch {
            throw .passkey(error, at: page.place)
        }
        let fields = [NameValue("clientDataJSON", Base64URL.encode(made.clientDataJSON)),
                      NameValue("attestationObject", Base64URL.encode(made.attestationObject)),
                      NameValue("publicKeyCredentialId", Base64URL.encode(made.credentialID)),
                      NameValue("authenticatorLabel", values.string("initLabel") ?? "authcode"),
                      NameValue("transports", ""), NameValue("error", "")]
        for field in fields.prefix(3) { session.remember(secret: field.value) }
        guard let post = try KeycloakSubmit.post(on: page, form: "register", values: fields, credential: true) else {
            throw .pageUnknown(provider: .keycloak, saw: "webauthn-register.ftl without its form", at: page.place)
        }
        return .received(try session.send(post, step: "passkey registration"), for: post)
    }

    /// `#authn_select`'s credentials (Keycloakify: `authenticators`).
    static func allowedCredentials(on page: KeycloakPage) -> [[UInt8]] {
        if let context = page.context {
            guard case .array(let list)? = context["authenticators", "authenticators"] else { return [] }
            return list.compactMap { $0["credentialId"]?.stringValue.flatMap { Base64URL.decode($0[...]) } }
        }
        guard let select = page.form(id: "authn_select") else { return [] }
        return select.fields.filter { $0.name == "authn_use_chk" }.compactMap { Base64URL.decode($0.value[...]) }
    }

    /// The values a WebAuthn page hands its script: Keycloakify's
    /// `kcContext` members, or the literals in the page's scripts.
    struct PageValues {
        let page: KeycloakPage

        init(_ page: KeycloakPage) { self.page = page }

        func value(_ name: String) -> JSONValue? {
            if let context = page.context { return context[name] }
            for script in page.markup.scripts {
                if let found = ScriptLiteral.assigned(name, in: script) { return found }
            }
            return nil
        }

        func string(_ name: String) -> String? { value(name)?.stringValue }

        /// `true`/`false`, written bare or as a string.
        func flag(_ name: String) -> Bool? {
            switch value(name) {
            case .bool(let flag)?: flag
            case .string(let text)?: text == "true"
            default: nil
            }
        }

        func integers(_ name: String) -> [Int] {
            guard case .array(let items)? = value(name) else { return [] }
            return items.compactMap { $0.numberValue.flatMap { Int(exactly: $0) } }
        }
    }
}
