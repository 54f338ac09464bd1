/// Keeps secrets out of everything authcode writes to stderr. Two layers:
/// by name (form fields, query parameters, headers whose names mean a
/// secret), and by value: every secret this run knows is scrubbed from any
/// text, in every form a server may echo it (`SecretScrubber`, `SecretForms`:
/// raw, percent-encoded, HTML- and JSON-escaped, base64), before any
/// truncation (`ServerText`).
package final class Redactor {
    package static let mask = SecretScrubber.mask
    let scrubber = SecretScrubber()

    package init() {}

    /// Remembers a value to scrub; values shorter than
    /// `SecretForms.minimumLength` are skipped (scrubbing "1" everywhere
    /// would make messages unreadable and protect nothing).
    package func remember(_ secret: String?) {
        scrubber.remember(secret)
    }

    /// A client secret, and the HTTP Basic credentials made of it (RFC 6749
    /// §2.3.1), which a server may echo as base64.
    package func rememberClient(id: String, secret: String?) {
        guard let secret else { return }
        scrubber.rememberBasic(id: id, secret: secret)
    }

    /// The text with every remembered secret masked.
    package func scrub(_ text: String) -> String {
        scrubber.scrub(text)
    }

    /// Text for stderr: secrets masked first, then server text bounded and
    /// every control character escaped (ServerText.swift); masked again at
    /// the end, in case escaping spelled a secret out.
    package func finished(_ text: String) -> String {
        scrub(ServerText.finished(scrub(text), scrub: scrub))
    }

    /// `response`: a JARM answer (OpenID JARM §2.3), a JWT that carries the code.
    /// `wresult` and `SAMLResponse`: the signed sign-in token a federation's
    /// self-posting form carries (WS-Federation, SAML POST binding: AD FS
    /// to Entra ID, Auth0 Lock to its callback), good for a session.
    private static let secretNames: Set<String> = [
        "code", "pin", "otp", "totp", "pass", "pwd", "assertion", "client_assertion", "session", "sid", "response",
        "wresult", "samlresponse",
    ]
    private static let secretFragments = [
        "password", "passwd", "passphrase", "secret", "token", "verifier", "credential", "cookie", "authorization", "apikey", "api_key", "api-key",
    ]

    /// Whether a field, parameter or header of this name carries a secret.
    package static func isSecretName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretNames.contains(lower) || secretFragments.contains { ASCII.contains(lower, bytes: $0) }
    }
}
