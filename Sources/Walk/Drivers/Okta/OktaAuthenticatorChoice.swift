import Core

/// One authenticator a remediation lets the user pick
/// (`select-authenticator-authenticate` lists several as `options`,
/// `authenticator-verification-data` asks how to use one): the values to
/// post back as `authenticator: {id, methodType, enrollmentId}`.
struct OktaAuthenticatorChoice {
    let authenticator: OktaAuthenticator
    let id: String
    /// A method type the form fixes (`value`), or nil when it offers
    /// `options` or none.
    let fixedMethod: String?
    let methodOptions: [String]
    let enrollmentID: String?

    /// Every option of a select remediation.
    static func options(of remediation: OktaRemediation, in answer: OktaIDXAnswer) -> [OktaAuthenticatorChoice] {
        (remediation.field("authenticator")?["options"]?.elements ?? []).compactMap { option in
            let related = option["relatesTo"]?.stringValue.flatMap(answer.resolve)
            return OktaAuthenticatorChoice(fields: option["value"]?["form"]?["value"]?.elements ?? [], related: related, answer: answer)
        }
    }

    /// The one authenticator of a verification-data remediation.
    static func only(of remediation: OktaRemediation, in answer: OktaIDXAnswer) -> OktaAuthenticatorChoice? {
        let related = remediation.relatesTo.lazy.compactMap(answer.resolve).first
        return OktaAuthenticatorChoice(fields: remediation.field("authenticator")?["form"]?["value"]?.elements ?? [], related: related, answer: answer)
    }

    private init?(fields: [JSONValue], related: JSONValue?, answer: OktaIDXAnswer) {
        func field(_ name: String) -> JSONValue? { fields.first { $0["name"]?.stringValue == name } }
        guard let id = field("id")?["value"]?.nonEmptyString else { return nil }
        self.id = id
        fixedMethod = field("methodType")?["value"]?.nonEmptyString
        methodOptions = (field("methodType")?["options"]?.elements ?? []).compactMap { $0["value"]?.stringValue }
        enrollmentID = field("enrollmentId")?["value"]?.nonEmptyString
        // The enrollment the option relates to says what it is; without
        // one, the enrollment of the same id does.
        let described = related ?? (answer.json["authenticatorEnrollments"]?["value"]?.elements ?? []).first { $0["id"]?.stringValue == id }
        let known = described.map(OktaAuthenticator.init)
        let methods = (known?.methods).flatMap { $0.isEmpty ? nil : $0 } ?? ([fixedMethod].compactMap { $0 } + methodOptions)
        authenticator = OktaAuthenticator(id: id, key: known?.key, type: known?.type ?? (fixedMethod == "password" ? "password" : nil),
                                          methods: methods)
    }

    /// The method that answers with a TOTP code, if this authenticator
    /// can be used that way.
    var codeMethod: String? {
        if let fixedMethod { return fixedMethod == "otp" || fixedMethod == "totp" ? fixedMethod : nil }
        if let offered = methodOptions.first(where: { $0 == "otp" || $0 == "totp" }) { return offered }
        return methodOptions.isEmpty ? authenticator.codeMethod : nil
    }

    var isPassword: Bool { authenticator.isPassword || fixedMethod == "password" }

    /// How an error line names it: each way it can be used.
    var names: [String] {
        let methods = fixedMethod.map { [$0] } ?? (methodOptions.isEmpty ? authenticator.methods : methodOptions)
        guard !methods.isEmpty else { return [authenticator.name()] }
        return methods.map { authenticator.name(method: $0) }
    }

    /// `authenticator: {id, methodType, enrollmentId}` as the form asks.
    func posted(method: String?) -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(id)]
        if let method { members["methodType"] = .string(method) }
        if let enrollmentID { members["enrollmentId"] = .string(enrollmentID) }
        return .object(members)
    }
}
