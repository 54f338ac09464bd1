import Core
import HTTP

/// Okta Identity Engine (IDX): the transaction the sign-in page began,
/// driven through its remediations as the Sign-In Widget drives it
/// (okta-auth-js lib/idx/remediators/*; Fixtures/server/replicas/okta.md,
/// "Identity Engine"): `identify` (with the password in it where the org
/// asks so), `challenge-authenticator` for the password and a TOTP code,
/// `select-authenticator-authenticate` where Okta asks which factor, and
/// finally the `success` link, which the walk follows to the redirect_uri.
/// Push, SMS and the other factors authcode cannot answer are named.
struct OktaIdentityEngine {
    let org: String
    /// What the driver sent last, to read an error answer by.
    private var last: Sent = .nothing
    private var passwordSent = false
    /// Authenticators already answered with a code (a second TOTP device is
    /// tried when the first turns the code down).
    private var codesTried: [String] = []
    /// The URL (without query) of the last request, for error lines.
    private var lastPlace: String

    private enum Sent: Equatable { case nothing, identify, password, code, choice }

    init(org: String) {
        self.org = org
        lastPlace = org + "/idp/idx/introspect"
    }

    /// From the introspect answer to the step the walk goes on with.
    mutating func run(from first: OktaIDXAnswer, in session: DriverSession) throws(DriverError) -> DriverStep {
        var answer = first
        while true {
            if let handle = answer.stateHandle { session.remember(secret: handle) }
            if let href = answer.successHref {
                session.trace.info("okta: signed in; following the success link to the redirect_uri")
                return .send(HTTPRequest(method: .get, url: resolve(href)))
            }
            if answer.isError {
                if last == .code, let other = nextCodeAuthenticator(in: answer) {
                    session.trace.info("okta: the code was turned down; trying the next TOTP authenticator")
                    answer = try choose(other, method: other.codeMethod, from: answer, in: session)
                    continue
                }
                throw rejection(answer)
            }
            answer = try step(answer, in: session)
        }
    }

    // MARK: - One step

    private mutating func step(_ answer: OktaIDXAnswer, in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        if let identify = answer.remediation("identify") {
            return try self.identify(identify, from: answer, in: session)
        }
        if let challenge = answer.remediation("challenge-authenticator") {
            let authenticator = current(challenge, in: answer)
            if authenticator.isPassword {
                return try sendPassword(challenge, from: answer, in: session)
            }
            if authenticator.codeMethod != nil {
                return try sendCode(challenge, for: authenticator, from: answer, in: session)
            }
            return try elsewhere(answer, unsupported: [authenticator.name()], in: session)
        }
        if let data = answer.remediation("authenticator-verification-data"),
           let choice = OktaAuthenticatorChoice.only(of: data, in: answer) {
            if let method = choice.codeMethod, !codesTried.contains(choice.id) {
                guard session.hasOneTimeCodes else { throw .oneTimeCodeNeeded(provider: .okta, at: place(answer)) }
                codesTried.append(choice.id)
                return try post(data, ["authenticator": choice.posted(method: method)], step: "\(data.name) (\(choice.authenticator.key ?? choice.id), \(method))",
                                from: answer, in: session, sent: .choice)
            }
            return try elsewhere(answer, unsupported: choice.names, in: session)
        }
        if let poll = answer.remediation("challenge-poll") {
            let authenticator = current(poll, in: answer)
            return try elsewhere(answer, unsupported: [authenticator.name(method: "push")], in: session)
        }
        if answer.remediation("select-authenticator-authenticate") != nil {
            return try elsewhere(answer, unsupported: [], in: session)
        }
        if let name = ["reenroll-authenticator", "reenroll-authenticator-warning"].first(where: { answer.remediation($0) != nil }) {
            throw .requiredAction(provider: .okta, action: "change the expired password (\(name))", at: place(answer))
        }
        if let name = ["select-authenticator-enroll", "enroll-authenticator", "enroll-profile", "select-enroll-profile", "enroll-poll"]
            .first(where: { answer.remediation($0) != nil }) {
            throw .requiredAction(provider: .okta, action: "enrol an authenticator the org requires (\(name))", at: place(answer))
        }
        let offered = answer.remediations.map(\.name)
        throw .pageUnknown(provider: .okta, saw: offered.isEmpty ? "an Identity Engine answer with no remediation"
                                                                 : "an Identity Engine answer offering \(offered.joined(separator: ", "))",
                           at: place(answer))
    }

    private mutating func identify(_ form: OktaRemediation, from answer: OktaIDXAnswer, in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        guard last != .identify else {
            throw .loginRejected(provider: .okta, text: answer.messages.first, at: place(answer))
        }
        let withPassword = form.field("credentials") != nil
        guard let user = session.value(for: ["identifier", "username"]) else {
            throw .credentialsMissing(provider: .okta, names: withPassword ? ["identifier", "password"] : ["identifier"], at: place(answer))
        }
        var body: [String: JSONValue] = ["identifier": .string(user)]
        if withPassword {
            guard let password = session.value(for: ["password", "passcode"]) else {
                throw .credentialsMissing(provider: .okta, names: ["password"], at: place(answer))
            }
            body["credentials"] = .object(["passcode": .string(password)])
            passwordSent = true
        }
        return try post(form, body, step: withPassword ? "identify (username and password)" : "identify (username)",
                        from: answer, in: session, sent: .identify, credential: true)
    }

    private mutating func sendPassword(_ form: OktaRemediation, from answer: OktaIDXAnswer, in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        guard !passwordSent else {
            throw .loginRejected(provider: .okta, text: answer.messages.first, at: place(answer))
        }
        guard let password = session.value(for: ["password", "passcode"]) else {
            throw .credentialsMissing(provider: .okta, names: ["password"], at: place(answer))
        }
        passwordSent = true
        let field = form.credentialsFieldName ?? "passcode"
        return try post(form, ["credentials": .object([field: .string(password)])], step: "\(form.name) (password)",
                        from: answer, in: session, sent: .password, credential: true)
    }

    private mutating func sendCode(_ form: OktaRemediation, for authenticator: OktaAuthenticator, from answer: OktaIDXAnswer,
                                   in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        let code = try session.oneTimeCode(at: place(answer))
        if let id = authenticator.id { codesTried.append(id) }
        let field = form.credentialsFieldName ?? "passcode"
        return try post(form, ["credentials": .object([field: .string(code)])], step: "\(form.name) (\(authenticator.key ?? "TOTP") code)",
                        from: answer, in: session, sent: .code, credential: true)
    }

    /// The factor this step asks for cannot be answered: pick another the
    /// select remediation offers (the password, a TOTP authenticator), or
    /// name what was asked.
    private mutating func elsewhere(_ answer: OktaIDXAnswer, unsupported: [String], in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        guard let select = answer.remediation("select-authenticator-authenticate") else {
            throw .factorUnsupported(provider: .okta, factor: OktaFactorNames.either(unsupported), at: place(answer))
        }
        let options = OktaAuthenticatorChoice.options(of: select, in: answer)
        if !passwordSent, let password = options.first(where: \.isPassword) {
            return try choose(password, method: password.fixedMethod ?? "password", from: answer, in: session)
        }
        let codes = codeOptions(options)
        if let first = codes.first {
            guard session.hasOneTimeCodes else { throw .oneTimeCodeNeeded(provider: .okta, at: place(answer)) }
            return try choose(first, method: first.codeMethod, from: answer, in: session)
        }
        let others = options.filter { !$0.isPassword }.flatMap(\.names)
        throw .factorUnsupported(provider: .okta, factor: OktaFactorNames.either(unsupported + others), at: place(answer))
    }

    /// The next TOTP authenticator not yet tried, when the last code was
    /// turned down and the answer still lets the user pick.
    private func nextCodeAuthenticator(in answer: OktaIDXAnswer) -> OktaAuthenticatorChoice? {
        guard let select = answer.remediation("select-authenticator-authenticate") else { return nil }
        return codeOptions(OktaAuthenticatorChoice.options(of: select, in: answer)).first
    }

    /// TOTP options not yet tried, Google Authenticator first: it is the
    /// factor a test user enrols with a plain authenticator app, whose seed
    /// `--totp-secret` holds; Okta Verify keeps its seed on the phone.
    private func codeOptions(_ options: [OktaAuthenticatorChoice]) -> [OktaAuthenticatorChoice] {
        let usable = options.filter { $0.codeMethod != nil && !codesTried.contains($0.id) }
        return usable.filter { $0.authenticator.key == "google_otp" } + usable.filter { $0.authenticator.key != "google_otp" }
    }

    private mutating func choose(_ choice: OktaAuthenticatorChoice, method: String?, from answer: OktaIDXAnswer,
                                 in session: DriverSession) throws(DriverError) -> OktaIDXAnswer {
        guard let select = answer.remediation("select-authenticator-authenticate") else {
            throw .pageUnknown(provider: .okta, saw: "an Identity Engine answer without select-authenticator-authenticate", at: place(answer))
        }
        if choice.codeMethod != nil, method == choice.codeMethod { codesTried.append(choice.id) }
        let label = [choice.authenticator.key ?? choice.id, method].compactMap { $0 }.joined(separator: ", ")
        return try post(select, ["authenticator": choice.posted(method: method)], step: "\(select.name) (\(label))",
                        from: answer, in: session, sent: .choice)
    }

    // MARK: - Requests and answers

    /// Posts a remediation's form with the transaction's state handle, as
    /// okta-auth-js does (lib/idx/idxState/v1/generateIdxAction.ts: JSON,
    /// `Accept` the remediation's `accepts`).
    private mutating func post(_ form: OktaRemediation, _ members: [String: JSONValue], step: String, from answer: OktaIDXAnswer,
                               in session: DriverSession, sent: Sent, credential: Bool = false) throws(DriverError) -> OktaIDXAnswer {
        guard let handle = answer.stateHandle else {
            throw .pageUnknown(provider: .okta, saw: "an Identity Engine answer without a stateHandle", at: place(answer))
        }
        var body = members
        body["stateHandle"] = .string(handle)
        var request = HTTPRequest.json(resolve(form.href), .object(body), headers: [HTTPHeader("Accept", form.accepts ?? "application/ion+json")])
        if credential { request.credential = .filledForm }
        let response = try session.send(request, step: step)
        last = sent
        lastPlace = Walker.place(request.url)
        guard let next = OktaIDXAnswer(response) else {
            throw .pageUnknown(provider: .okta, saw: "a \(response.status) answer of \(response.body.count) bytes of \(response.mediaType ?? "no content type") where an Identity Engine answer was expected",
                               at: Walker.place(request.url))
        }
        return next
    }

    /// An error answer: the provider's own text, as a rejected password or
    /// code, or (before any credential went out) as a page not understood.
    private func rejection(_ answer: OktaIDXAnswer) -> DriverError {
        let text = answer.messages.isEmpty ? nil : answer.messages.joined(separator: " ")
        switch last {
        case .code:
            return .oneTimeCodeRejected(provider: .okta, text: text, at: place(answer))
        case .nothing:
            return .pageUnknown(provider: .okta, saw: "an Identity Engine error (\(answer.status))" + (text.map { ": " + $0 } ?? ""), at: place(answer))
        case .identify, .password, .choice:
            return .loginRejected(provider: .okta, text: text, at: place(answer))
        }
    }

    /// The authenticator a challenge or poll relates to.
    private func current(_ form: OktaRemediation, in answer: OktaIDXAnswer) -> OktaAuthenticator {
        let paths = form.relatesTo + ["$.currentAuthenticatorEnrollment", "$.currentAuthenticator"]
        for path in paths {
            if let value = answer.resolve(path), case .object = value { return OktaAuthenticator(value) }
        }
        return OktaAuthenticator(id: nil, key: nil, type: nil, methods: [])
    }

    private func resolve(_ href: String) -> String {
        guard let reference = URIReference(href), reference.scheme == nil, let base = URIReference(org + "/") else { return href }
        return reference.resolved(against: base).text
    }

    /// Error lines name the URL whose answer is being read.
    private func place(_ answer: OktaIDXAnswer) -> String { lastPlace }
}
