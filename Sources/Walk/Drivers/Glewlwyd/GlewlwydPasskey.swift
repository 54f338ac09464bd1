import Core
import HTTP

/// Glewlwyd's WebAuthn scheme (Fixtures/glewlwyd/README.md, "Passkeys"): a
/// login is `POST /api/auth/scheme/trigger/` then `POST /api/auth/` with the
/// assertion (WebauthnForm.js); a user with no credential registers one
/// first through the profile API, `POST /api/profile/scheme/register/`
/// new-credential then register-credential (the profile app's
/// SchemeWebauthn.js), during the password session. Every binary value is
/// standard base64 with padding both ways, as the apps' `btoa`/`atob` make
/// it; the credential's `id` is base64url, as a browser gives it.
struct GlewlwydPasskey {
    let api: GlewlwydAPI
    let username: String
    let scheme: GlewlwydSchemeState.Scheme

    func authenticate() throws(DriverError) {
        if !scheme.registered { try register() }
        try assert()
    }

    private func body(_ value: JSONValue) -> JSONValue {
        .object(["username": .string(username), "scheme_type": .string(scheme.type), "scheme_name": .string(scheme.name), "value": value])
    }

    private func place(_ path: String) -> String { Walker.place(api.url(path)) }

    private func bytes(_ value: JSONValue?, _ what: String, at path: String) throws(DriverError) -> [UInt8] {
        guard let text = value?.stringValue, let decoded = Base64URL.decode(Substring(text)), !decoded.isEmpty else {
            throw .pageUnknown(provider: .glewlwyd, saw: "a WebAuthn answer without \(what)", at: place(path))
        }
        return decoded
    }

    /// Registration: the login asks for a passkey the user does not have;
    /// the software authenticator makes one only with `--passkey-register`
    /// and a FILE that does not exist yet (WebAuthn/Passkey.swift).
    private func register() throws(DriverError) {
        let path = "/profile/scheme/register/"
        api.session.trace.info("glewlwyd: \(username) has no passkey for '\(scheme.name)'; registering one through the profile API")
        // Asked first, so no server state is made for a run that may not register.
        do throws(WebAuthnError) {
            try api.session.passkey.checkRegistration()
        } catch {
            throw .passkey(error, at: place(path))
        }
        let options = try api.call(.post, path, body(.object(["register": .string("new-credential")])), step: "passkey registration: new-credential")
        try api.expectOK(options, path)
        let offer = try api.object(options, path)
        let sessionID = offer["session"]?.stringValue ?? ""
        api.session.remember(secret: sessionID)
        let algorithms = (offer["pubKey-cred-params"].flatMap { value -> [JSONValue]? in
            if case .array(let items) = value { return items } else { return nil }
        } ?? []).compactMap { $0["alg"]?.numberValue.map { Int($0) } }
        let user = offer["user"]
        let request = RegistrationRequest(
            challenge: try bytes(offer["challenge"], "a challenge", at: path), origin: api.page.origin,
            user: .init(id: try bytes(user?["id"], "a user id", at: path), name: user?["name"]?.stringValue ?? username,
                        displayName: user?["name"]?.stringValue ?? username),
            algorithms: algorithms)
        let made: RegistrationResponse
        do throws(WebAuthnError) {
            made = try api.session.passkey.create(request)
        } catch {
            throw .passkey(error, at: place(path))
        }
        let response = JSONValue.object([
            "clientDataJSON": .string(Base64URL.encodeStandard(made.clientDataJSON)),
            "attestationObject": .string(Base64URL.encodeStandard(made.attestationObject)),
        ])
        let credential = JSONValue.object(["id": .string(Base64URL.encode(made.credentialID)), "rawId": .string(Base64URL.encodeStandard(made.credentialID)),
                                           "type": .string("public-key"), "response": response])
        let value = JSONValue.object(["register": .string("register-credential"), "session": .string(sessionID), "credential": credential])
        try api.expectOK(try api.call(.post, path, body(value), step: "passkey registration: register-credential", credential: true), path)
    }

    /// Login: the trigger's challenge signed by the passkey.
    private func assert() throws(DriverError) {
        let trigger = "/auth/scheme/trigger/"
        let answer = try api.call(.post, trigger, body(.object([:])), step: "passkey trigger")
        if answer.status == 401 {
            // The app's text for this answer: the user has no credential.
            throw .loginRejected(provider: .glewlwyd, text: "You must register a webauthn device", at: place(trigger))
        }
        try api.expectOK(answer, trigger)
        let offer = try api.object(answer, trigger)
        let sessionID = offer["session"]?.stringValue ?? ""
        api.session.remember(secret: sessionID)
        var allowed: [[UInt8]] = []
        if case .array(let items)? = offer["allowCredentials"] {
            for item in items { allowed.append(try bytes(item["credential_id"], "a credential_id", at: trigger)) }
        }
        // The app passes neither rpId nor userVerification to get(): the
        // page's host, and "preferred".
        let request = AssertionRequest(challenge: try bytes(offer["challenge"], "a challenge", at: trigger), origin: api.page.origin,
                                       allowCredentials: allowed)
        let signed: AssertionResponse
        do throws(WebAuthnError) {
            signed = try api.session.passkey.get(request)
        } catch {
            throw .passkey(error, at: place(trigger))
        }
        let signature = Base64URL.encodeStandard(signed.signature)
        api.session.remember(secret: signature)
        api.session.trace.info("glewlwyd: passkey signed the challenge (signCount \(signed.signCount))")
        let response = JSONValue.object([
            "clientDataJSON": .string(Base64URL.encodeStandard(signed.clientDataJSON)),
            "authenticatorData": .string(Base64URL.encodeStandard(signed.authenticatorData)),
            "signature": .string(signature),
            "userHandle": .string(Base64URL.encodeStandard(signed.userHandle)),
        ])
        let credential = JSONValue.object(["id": .string(Base64URL.encode(signed.credentialID)), "rawId": .string(Base64URL.encodeStandard(signed.credentialID)),
                                           "type": .string("public-key"), "response": response])
        let value = JSONValue.object(["session": .string(sessionID), "credential": credential])
        try api.expectOK(try api.call(.post, "/auth/", body(value), step: "passkey assertion", credential: true), "/auth/")
    }
}
