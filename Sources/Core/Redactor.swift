/// Keeps secrets out of everything authcode writes to stderr (secrets never reach stderr).
/// Two layers: by name (form fields, query parameters, headers whose names
/// mean a secret), and by value (every secret this run has seen is scrubbed
/// from any text, such as a body excerpt that echoes a code).
package final class Redactor {
    package static let mask = "[redacted]"
    private var secrets: [String] = []

    package init() {}

    /// Remembers a value to scrub. Very short values are skipped: scrubbing
    /// "1" everywhere would make messages unreadable and protect nothing.
    package func remember(_ secret: String?) {
        guard let secret, secret.count >= 4 else { return }
        // The same secret as it travels form-encoded too (once: encoding the
        // encoded form again would never end for a secret holding '%').
        for form in [secret, FormEncoding.escape(secret)] where !secrets.contains(form) {
            secrets.append(form)
        }
        // Longest first, so a secret containing another is scrubbed whole.
        secrets.sort { $0.count > $1.count }
    }

    /// The text with every remembered secret replaced by the mask.
    package func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }

    private static let secretNames: Set<String> = [
        "code", "pin", "otp", "totp", "pass", "pwd", "assertion", "client_assertion", "session", "sid",
    ]
    private static let secretFragments = [
        "password", "passwd", "secret", "token", "verifier", "credential", "cookie", "authorization", "apikey", "api_key", "api-key",
    ]

    /// Whether a field, parameter or header of this name carries a secret.
    package static func isSecretName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretNames.contains(lower) || secretFragments.contains { lower.contains($0) }
    }
}
