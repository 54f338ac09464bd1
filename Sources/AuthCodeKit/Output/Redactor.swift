/// Keeps secrets out of everything authcode writes to stderr (DESIGN.md §4.6).
/// Two layers: by name (form fields, query parameters, headers whose names
/// mean a secret), and by value (every secret this run has seen is scrubbed
/// from any text, such as a body excerpt that echoes a code).
public final class Redactor {
    public static let mask = "[redacted]"
    private var secrets: [String] = []

    public init() {}

    /// Remembers a value to scrub. Very short values are skipped: scrubbing
    /// "1" everywhere would make messages unreadable and protect nothing.
    public func remember(_ secret: String?) {
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
    public func scrub(_ text: String) -> String {
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
    public static func isSecretName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretNames.contains(lower) || secretFragments.contains { lower.contains($0) }
    }

    /// Name=value pairs for the trace.
    public func fields(_ fields: [(String, String)]) -> String {
        fields.map { name, value in
            "\(name)=\(Self.isSecretName(name) ? Self.mask : scrub(value))"
        }.joined(separator: "&")
    }

    /// A URL with the values of secret query and fragment parameters masked.
    public func url(_ text: String) -> String {
        guard var reference = URIReference(text)?.maskingUserinfoPassword(with: Self.mask) else { return scrub(text) }
        if let query = reference.query { reference.query = maskParameters(query) }
        if let fragment = reference.fragment { reference.fragment = maskParameters(fragment) }
        return scrub(reference.text)
    }

    private func maskParameters(_ query: String) -> String {
        Array(query.utf8).split(separator: ASCII.ampersand, omittingEmptySubsequences: false).map { piece in
            guard let equals = piece.firstIndex(of: ASCII.equals) else { return ASCII.string(piece) }
            let rawName = ASCII.string(piece[..<equals])
            return Self.isSecretName(FormEncoding.unescape(Substring(rawName))) ? "\(rawName)=\(Self.mask)" : ASCII.string(piece)
        }.joined(separator: "&")
    }

    /// The name of `name=value`, cut at the `=` byte (as a Character, `=`
    /// followed by a combining mark is unseen and the value would show).
    private static func cookieName(_ pair: ArraySlice<UInt8>) -> String {
        let name = pair.firstIndex(of: ASCII.equals).map { pair[..<$0] } ?? pair
        return ASCII.string(name).trimmed
    }

    /// A header line for the trace: credentials and cookie values masked,
    /// cookie names kept so the trace still shows which cookies travel.
    public func header(_ header: HTTPHeader) -> String {
        let lower = header.name.lowercased()
        let value: String
        switch lower {
        case "authorization", "proxy-authorization":
            let scheme = header.value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            value = scheme.isEmpty || scheme == header.value ? Self.mask : "\(scheme) \(Self.mask)"
        case "cookie":
            value = Array(header.value.utf8).split(separator: UInt8(ascii: ";")).map { "\(Self.cookieName($0))=\(Self.mask)" }.joined(separator: "; ")
        case "set-cookie":
            value = "\(Self.cookieName(Array(header.value.utf8)[...]))=\(Self.mask)"
        case "location", "refresh", "content-location":
            value = url(header.value)
        default:
            value = Self.isSecretName(lower) ? Self.mask : scrub(header.value)
        }
        return "\(header.name): \(value)"
    }
}
