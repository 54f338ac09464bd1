import Core
import HTTP

/// The schemes the requested scopes still ask for after the password
/// (`GET /api/auth/scheme/?scope=…`), each answered the way the login app's
/// scheme forms do: a TOTP code (`otp`), a passkey (`webauthn`, registered
/// through the profile API first when the user has none and the run may).
struct GlewlwydFactors {
    let api: GlewlwydAPI
    let username: String

    func authenticate(scopes: [String]) throws(DriverError) {
        let path = "/auth/scheme/?scope=" + GlewlwydLoginPage.component(scopes.joined(separator: " "))
        let schemes = try api.call(.get, path, step: "schemes")
        try api.expectOK(schemes, path)
        guard let state = GlewlwydSchemeState(try api.session.json(schemes, at: place(path))) else {
            throw .pageUnknown(provider: .glewlwyd, saw: "a scheme answer that is not an object of scopes", at: place(path))
        }
        var done: [GlewlwydSchemeState.Scheme] = []
        for scope in state.scopes where scope.available {
            if scope.passwordRequired && !scope.passwordAuthenticated {
                throw .pageUnknown(provider: .glewlwyd, saw: "the scope \(scope.name) still asks for the password it accepted", at: place(path))
            }
            for group in scope.groups {
                var left = group.schemes.filter { !$0.authenticated && !Self.contains(done, $0) }
                var count = group.schemes.count - left.count
                while count < group.required {
                    let scheme = try choose(from: left, scope: scope.name)
                    api.session.trace.info("glewlwyd: scope \(scope.name) asks for \(group.required) of \(group.schemes.map(\.name).joined(separator: ", ")); answering \(scheme.type) '\(scheme.name)'")
                    try answer(scheme)
                    done.append(scheme)
                    left.removeAll { $0 == scheme }
                    count += 1
                }
            }
        }
    }

    private static func contains(_ list: [GlewlwydSchemeState.Scheme], _ scheme: GlewlwydSchemeState.Scheme) -> Bool {
        list.contains { $0.type == scheme.type && $0.name == scheme.name }
    }

    private func place(_ path: String) -> String { Walker.place(api.url(path)) }

    /// A scheme this run can answer: registered ones first, the most recently
    /// used first (the app's choice); else the error that names what is missing.
    func choose(from left: [GlewlwydSchemeState.Scheme], scope: String) throws(DriverError) -> GlewlwydSchemeState.Scheme {
        let session = api.session
        let answerable = left.filter { scheme in
            switch scheme.type {
            case "otp": scheme.registered && session.hasOneTimeCodes
            case "webauthn": session.passkey.isAvailable
            case "retype-password", "http": session.value(for: ["password"]) != nil
            default: false
            }
        }
        if let best = answerable.max(by: { ($0.registered ? 1 : 0, $0.lastLogin) < ($1.registered ? 1 : 0, $1.lastLogin) }) {
            return best
        }
        let at = Walker.place(api.url("/auth/scheme/"))
        if left.contains(where: { $0.type == "otp" && $0.registered }) { throw .oneTimeCodeNeeded(provider: .glewlwyd, at: at) }
        if left.contains(where: { $0.type == "webauthn" && $0.registered }) { throw .passkey(.noPasskey, at: at) }
        if left.contains(where: { $0.type == "webauthn" }) { throw .passkey(.registrationNotAllowed(path: nil), at: at) }
        if left.contains(where: { $0.type == "otp" }) {
            throw .requiredAction(provider: .glewlwyd, action: "set up a one-time password (TOTP) in the user's profile for the scope \(scope)", at: at)
        }
        let factor = left.first.map { Self.describe($0) } ?? "a scheme it does not list"
        throw .factorUnsupported(provider: .glewlwyd, factor: factor, at: at)
    }

    /// A scheme authcode cannot answer, as the user knows it.
    static func describe(_ scheme: GlewlwydSchemeState.Scheme) -> String {
        let what = switch scheme.type {
        case "email": "a code sent by e-mail"
        case "certificate": "a TLS client certificate"
        case "oauth2": "a login at another provider"
        case "retype-password", "http": "the password again"
        case "mock": "the test scheme"
        default: "a factor"
        }
        return "\(what) (scheme \(scheme.type) '\(scheme.name)')"
    }

    private func answer(_ scheme: GlewlwydSchemeState.Scheme) throws(DriverError) {
        switch scheme.type {
        case "otp": try oneTimeCode(scheme)
        case "retype-password", "http": try passwordAgain(scheme)
        default: try GlewlwydPasskey(api: api, username: username, scheme: scheme).authenticate()
        }
    }

    /// `POST /api/auth/` with `value: {password}` (PasswordSchemeForm.js): the
    /// `retype-password` scheme, and `http`, which checks it at another service.
    private func passwordAgain(_ scheme: GlewlwydSchemeState.Scheme) throws(DriverError) {
        let password = api.session.value(for: ["password"]) ?? ""
        let body = JSONValue.object(["username": .string(username), "scheme_type": .string(scheme.type),
                                     "scheme_name": .string(scheme.name), "value": .object(["password": .string(password)])])
        try api.expectOK(try api.call(.post, "/auth/", body, step: "password again (\(scheme.name))", credential: true), "/auth/")
    }

    /// `POST /api/auth/` with `value: {value: <code>}` (OTPSchemeForm.js). The
    /// code is made right before it is sent: Glewlwyd takes only the current
    /// 30-second step.
    private func oneTimeCode(_ scheme: GlewlwydSchemeState.Scheme) throws(DriverError) {
        let code = try api.session.oneTimeCode(at: place("/auth/"))
        let body = JSONValue.object(["username": .string(username), "scheme_type": .string(scheme.type),
                                     "scheme_name": .string(scheme.name), "value": .object(["value": .string(code)])])
        try api.expectOK(try api.call(.post, "/auth/", body, step: "one-time code (\(scheme.name))", credential: true), "/auth/")
    }
}
