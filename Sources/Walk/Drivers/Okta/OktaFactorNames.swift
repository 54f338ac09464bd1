/// How the factors an Okta user may be asked for are named in an error
/// line: by what a person would do (approve a push, read an SMS), with the
/// API's own name beside it so an administrator finds it in the console.
/// Classic factor types are the Authentication API's `factorType`; Identity
/// Engine authenticators are named by their `key` and method `type`
/// (Fixtures/server/replicas/okta.md, "Users").
enum OktaFactorNames {
    /// A Classic `factorType` (and its `provider`).
    static func classic(_ type: String, provider: String?) -> String {
        switch type {
        case "push": return "Okta Verify push (push)"
        case "sms": return "an SMS code (sms)"
        case "call": return "a phone call (call)"
        case "email": return "an e-mail code (email)"
        case "question": return "a security question (question)"
        case "webauthn", "u2f": return "a security key (\(type))"
        case "token", "token:hardware", "token:hotp": return "a hardware token (\(provider ?? type))"
        default: return type
        }
    }

    /// An Identity Engine authenticator (`key`) used by `method`.
    static func identityEngine(key: String?, method: String?) -> String {
        switch (key, method) {
        case ("okta_verify", "push"?): return "Okta Verify push (okta_verify, push)"
        case ("okta_verify", "signed_nonce"?): return "Okta FastPass (okta_verify, signed_nonce)"
        case ("phone_number", "voice"?): return "a phone call (phone_number, voice)"
        case ("phone_number", _): return "an SMS code (phone_number, \(method ?? "sms"))"
        case ("okta_email", _): return "an e-mail code (okta_email)"
        case ("security_question", _): return "a security question (security_question)"
        case ("webauthn", _): return "a security key or passkey (webauthn)"
        case ("duo", _): return "Duo (duo)"
        default: return [key, method].compactMap { $0 }.joined(separator: ", ")
        }
    }

    /// Several names as one phrase: "A or B or C".
    static func either(_ names: [String]) -> String {
        var seen: [String] = []
        for name in names where !seen.contains(name) { seen.append(name) }
        return seen.isEmpty ? "a factor it did not name" : seen.joined(separator: " or ")
    }
}
