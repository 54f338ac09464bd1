import Core
import HTTP

/// The answer to each stage authcode can pass, as authentik's web client
/// sends it (authentik.md, "State machine"; idps.md §3): identification
/// (`uid_field`, `password` when the stage has the password field, or a
/// passkey), password, authenticator validation (a TOTP code or a passkey;
/// SMS, Duo and recovery codes are named as factors authcode cannot
/// answer), consent (`token` echoed), user login (`remember_me`).
struct AuthentikStages {
    let executor: AuthentikExecutor
    let session: DriverSession
    /// The flow page's origin, for WebAuthn's clientDataJSON.
    let origin: String

    private var place: String { executor.place }

    func answer(_ challenge: AuthentikChallenge) throws(DriverError) -> AuthentikChallenge {
        switch challenge.component {
        case "ak-stage-identification": return try identification(challenge)
        case "ak-stage-password":
            guard let password = session.value(for: ["password"]) else {
                throw .credentialsMissing(provider: .authentik, names: ["password"], at: place)
            }
            return try executor.answer(challenge.component, ["password": .string(password)], step: "password", credential: true)
        case "ak-stage-authenticator-validate": return try validate(challenge)
        case "ak-stage-consent":
            guard let token = challenge["token"]?.stringValue else {
                throw .pageUnknown(provider: .authentik, saw: "a consent stage without a token", at: place)
            }
            session.trace.info("authentik: consenting to what the application asks, as the user's click does")
            return try executor.answer(challenge.component, ["token": .string(token)], step: "consent")
        case "ak-stage-user-login":
            return try executor.answer(challenge.component, ["remember_me": .bool(false)], step: "user login")
        default:
            throw .pageUnknown(provider: .authentik, saw: "the stage \(challenge.component.isEmpty ? "without a component" : challenge.component)", at: place)
        }
    }

    private func identification(_ challenge: AuthentikChallenge) throws(DriverError) -> AuthentikChallenge {
        if let options = challenge["passkey_challenge"], case .object = options, session.passkey.isAvailable {
            session.trace.info("authentik: the identification stage offers a passkey login; answering with \(session.trace.names.passkey)")
            let answer = try AuthentikPasskey.answer(options, origin: origin, in: session, at: place)
            return try executor.answer(challenge.component, ["passkey": answer], step: "passkey", credential: true)
        }
        let merged = challenge["password_fields"] == .bool(true)
        let user = session.value(for: ["uid_field", "username", "email"])
        let password = merged ? session.value(for: ["password"]) : nil
        guard let user, !merged || password != nil else {
            throw .credentialsMissing(provider: .authentik, names: ["uid_field"] + (merged ? ["password"] : []), at: place)
        }
        var members: [String: JSONValue] = ["uid_field": .string(user)]
        if let password { members["password"] = .string(password) }
        return try executor.answer(challenge.component, members, step: merged ? "identification with password" : "identification",
                                   credential: merged)
    }

    /// A device challenge this run can answer: TOTP with `--totp-secret`, a
    /// passkey with `--passkey`; else the error that names what is missing.
    private func validate(_ challenge: AuthentikChallenge) throws(DriverError) -> AuthentikChallenge {
        let devices = challenge.deviceChallenges
        let classes = devices.compactMap { $0["device_class"]?.stringValue }
        if session.hasOneTimeCodes, let totp = devices.first(where: { $0["device_class"]?.stringValue == "totp" }) {
            let code = try session.oneTimeCode(at: place)
            return try executor.answer(challenge.component, ["selected_challenge": totp, "code": .string(code)], step: "one-time code",
                                       credential: true)
        }
        if session.passkey.isAvailable, let key = devices.first(where: { $0["device_class"]?.stringValue == "webauthn" }),
           let options = key["challenge"] {
            let answer = try AuthentikPasskey.answer(options, origin: origin, in: session, at: place)
            return try executor.answer(challenge.component, ["selected_challenge": key, "webauthn": answer], step: "passkey",
                                       credential: true)
        }
        if classes.contains("totp") { throw .oneTimeCodeNeeded(provider: .authentik, at: place) }
        if classes.contains("webauthn") { throw .passkey(.noPasskey, at: place) }
        let factor = classes.first.map(Self.describe) ?? "a second factor it offers no device for"
        throw .factorUnsupported(provider: .authentik, factor: factor, at: place)
    }

    /// A device class authcode cannot answer, as the user knows it.
    static func describe(_ deviceClass: String) -> String {
        switch deviceClass {
        case "sms": "a code sent by SMS"
        case "duo": "a Duo push"
        case "email": "a code sent by e-mail"
        case "static": "a recovery code"
        default: "a '\(deviceClass)' device"
        }
    }
}
