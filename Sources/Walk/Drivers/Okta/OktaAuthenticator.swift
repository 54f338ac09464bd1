import Core

/// An authenticator as an Identity Engine answer describes it
/// (`currentAuthenticator`, `currentAuthenticatorEnrollment`, an entry of
/// `authenticatorEnrollments`): its `key` (`okta_password`, `google_otp`,
/// `okta_verify`, `phone_number`…), `type` and the method types it has.
struct OktaAuthenticator: Equatable {
    let id: String?
    let key: String?
    let type: String?
    let methods: [String]

    init(id: String?, key: String?, type: String?, methods: [String]) {
        self.id = id
        self.key = key
        self.type = type
        self.methods = methods
    }

    init(_ json: JSONValue) {
        id = json["id"]?.nonEmptyString
        key = json["key"]?.nonEmptyString
        type = json["type"]?.nonEmptyString
        methods = (json["methods"]?.elements ?? []).compactMap { $0["type"]?.stringValue }
    }

    var isPassword: Bool { type == "password" || key == "okta_password" }

    /// The method type that answers with a TOTP code: Google
    /// Authenticator's `otp`, Okta Verify's `totp` (okta-auth-js
    /// lib/idx/authenticator/OktaVerifyTotp.ts).
    var codeMethod: String? {
        if let method = methods.first(where: { $0 == "otp" || $0 == "totp" }) { return method }
        return key == "google_otp" ? "otp" : nil
    }

    /// How an error line names it when used by `method`.
    func name(method: String? = nil) -> String {
        OktaFactorNames.identityEngine(key: key ?? type, method: method ?? methods.first)
    }
}
