import Core
import HTTP

/// Which values of an option are secrets when written out literally (an
/// `@FILE` reference names a secret but is none).
package enum SecretValue: Sendable, Equatable {
    case never
    /// Every value (a client secret, a refresh token).
    case always
    /// `NAME=VALUE` or `Name: value` whose name reads as a secret by the
    /// redaction rule (`Redactor.isSecretName`: password, pin, otp,
    /// authorization…); `fileValue`: a `NAME=VALUE` pair
    /// (`OptionValues.pair`), whose VALUE, as written, may itself be `@FILE`
    /// and which is never read whole from a file.
    case named(separator: Character, fileValue: Bool)
    /// `METHOD URL [BODY]` whose BODY, a JSON object or a form, has a field
    /// whose name reads as a secret (a login API's password).
    case body
    /// A URL carrying `user:password@` (a proxy's credentials).
    case urlCredentials
}

extension SecretValue {
    /// Whether `text`, as written, holds a secret itself rather than naming
    /// a file that does (`@FILE`; `@@…` is a literal `@…`).
    func isLiteral(in text: String) -> Bool {
        func literal<S: StringProtocol>(_ value: S) -> Bool {
            !value.isEmpty && !(value.hasPrefix("@") && !value.hasPrefix("@@"))
        }
        switch self {
        case .never:
            return false
        case .always:
            return literal(text)
        case .named(let separator, let fileValue):
            // A header's whole value may name a file holding `Name: value`
            // (-H @FILE). A pair's never does: `OptionValues.pair` resolves
            // only VALUE, exactly as written, so `@password=x` sends x and
            // `password= @x` sends " @x", both literal.
            guard fileValue || literal(text), let cut = text.firstIndex(of: separator) else { return false }
            guard Redactor.isSecretName(text[..<cut].trimmed) else { return false }
            let value = text[text.index(after: cut)...]
            return fileValue ? literal(value) : !value.drop(while: { $0 == " " || $0 == "\t" }).isEmpty
        case .body:
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count == 3, literal(parts[2]) else { return false }
            let body = String(parts[2])
            if let json = JSONValue.parse(Array(body.utf8)) { return Self.hasSecretName(json) }
            return FormEncoding.decode(body).contains { Redactor.isSecretName($0.0) && !$0.1.isEmpty }
        case .urlCredentials:
            return literal(text) && URIReference(text)?.userinfo?.isEmpty == false
        }
    }

    /// Whether a JSON value has, at any depth, a member whose name reads as a secret.
    static func hasSecretName(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): return members.contains { Redactor.isSecretName($0.key) || hasSecretName($0.value) }
        case .array(let items): return items.contains(where: hasSecretName)
        case .string, .number, .bool, .null: return false
        }
    }
}
