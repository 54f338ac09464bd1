import Core
import HTTP
import OAuth
import Walk

/// Every secret a run knows before it sends anything, handed to its
/// redactor: the client secret (and the Basic credential made of it), a
/// refresh token, the TOTP seed, every `--form` value whatever its name
/// (a `passphrase` or `pin` field is as secret as `password`), the passkey's
/// private key, every value
/// of a `--step` body, every `-H` value, proxy credentials. What the run learns later (state,
/// verifier, code, tokens, cookies, filled password fields) is remembered
/// where it is learnt.
enum KnownSecrets {
    static func remember(_ settings: FlowSettings, in redactor: Redactor) {
        redactor.rememberClient(id: settings.client.id, secret: settings.client.secret)
        redactor.remember(settings.request.refreshToken)
        // The TOTP seed as given, and the base32 inside an otpauth:// URI.
        redactor.remember(settings.walk.totpSecret)
        if let query = settings.walk.totpSecret?.split(separator: "?", maxSplits: 1).dropFirst().first {
            for (name, value) in FormEncoding.decode(String(query)) where name.lowercased() == "secret" { redactor.remember(value) }
        }
        for field in settings.walk.form { redactor.remember(field.value) }
        redactor.remember(passkey: settings.walk.passkey)
        for step in settings.walk.steps { rememberBody(step.body, in: redactor) }
        rememberBody(settings.call.request?.body, in: redactor)
        for header in settings.connection.headers { redactor.remember(header: header) }
        redactor.remember(proxies: settings.connection.transport.proxy)
    }

    /// A step body's values: JSON string members at any depth, or form
    /// fields; anything else whole.
    static func rememberBody(_ body: String?, in redactor: Redactor) {
        guard let body, !body.isEmpty else { return }
        if let json = JSONValue.parse(Array(body.utf8)) {
            rememberStrings(in: json, redactor)
        } else if body.contains("=") {
            for (_, value) in FormEncoding.decode(body) { redactor.remember(value) }
        } else {
            redactor.remember(body)
        }
    }

    private static func rememberStrings(in value: JSONValue, _ redactor: Redactor) {
        switch value {
        case .string(let text): redactor.remember(text)
        case .array(let items): for item in items { rememberStrings(in: item, redactor) }
        case .object(let members): for member in members.values { rememberStrings(in: member, redactor) }
        case .number, .bool, .null: break
        }
    }
}
