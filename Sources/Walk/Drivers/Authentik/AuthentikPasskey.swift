import Core
import HTTP

/// A WebAuthn assertion for authentik: the challenge is py_webauthn's
/// authentication options as JSON (challenge, rpId, allowCredentials,
/// userVerification; binary values base64url), and the answer the web
/// client's `{id, rawId, type, response: {clientDataJSON,
/// authenticatorData, signature, userHandle}}`, base64url too
/// (authentik.md; idps.md §3).
enum AuthentikPasskey {
    static func answer(_ options: JSONValue, origin: String, in session: DriverSession, at place: String) throws(DriverError) -> JSONValue {
        guard let challenge = options["challenge"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }), !challenge.isEmpty else {
            throw .pageUnknown(provider: .authentik, saw: "a WebAuthn challenge without a challenge value", at: place)
        }
        var allowed: [[UInt8]] = []
        if case .array(let items)? = options["allowCredentials"] {
            for item in items {
                guard let id = item["id"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }) else {
                    throw .pageUnknown(provider: .authentik, saw: "a WebAuthn challenge whose allowCredentials has no id", at: place)
                }
                allowed.append(id)
            }
        }
        let request = AssertionRequest(challenge: challenge, origin: origin, rpID: options["rpId"]?.stringValue,
                                       allowCredentials: allowed, userVerification: UserVerification(options["userVerification"]?.stringValue))
        let signed: AssertionResponse
        do throws(WebAuthnError) {
            signed = try session.passkey.get(request)
        } catch {
            throw .passkey(error, at: place)
        }
        let signature = Base64URL.encode(signed.signature)
        session.remember(secret: signature)
        session.trace.info("authentik: passkey signed the challenge (signCount \(signed.signCount))")
        let id = Base64URL.encode(signed.credentialID)
        return .object([
            "id": .string(id), "rawId": .string(id), "type": .string("public-key"),
            "response": .object([
                "clientDataJSON": .string(Base64URL.encode(signed.clientDataJSON)),
                "authenticatorData": .string(Base64URL.encode(signed.authenticatorData)),
                "signature": .string(signature),
                "userHandle": signed.userHandle.isEmpty ? .null : .string(Base64URL.encode(signed.userHandle)),
            ]),
        ])
    }
}
