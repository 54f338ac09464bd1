import Core
import Flow

/// A secret written literally on the command line shows in `ps` and the
/// shell's history: one hint for it, by one rule for every option — the
/// config files' rule (`OptionDeclaration.secret`, `holdsLiteralSecret`):
/// a client secret or a refresh token, a `--form`/`--param` value whose
/// name reads as secret, a `-H` header such as `Authorization` or
/// `X-Api-Token`, a `--step` or `--call` body holding a password, a proxy's
/// `user:password@` (issue 31 item 8). Each hint says how to give it
/// instead.
extension OptionRules {
    func literalSecretHints(_ options: inout Options) {
        for declaration in OptionTable.all where declaration.secret != .never {
            for given in raw[declaration.long] ?? [] where given.fromCommandLine && declaration.holdsLiteralSecret(given.text) {
                options.warnings.append("authcode: hint: \(Self.what(declaration, given.text)) on the command line shows in 'ps' and shell history; "
                                        + "use \(Self.instead(declaration, given.text))")
            }
        }
    }

    /// What the secret is, in the words the hints have always used.
    static func what(_ declaration: OptionDeclaration, _ text: String) -> String {
        switch declaration.long {
        case "client-secret": "a client secret"
        case "totp-secret": "a TOTP secret"
        case "refresh-token": "a refresh token"
        case "form": "a password"
        case "header": "a secret header (\(Self.shown(String(text.prefix { $0 != ":" }).trimmed, 60)))"
        case "proxy": "a proxy password"
        default:
            switch declaration.secret {
            case .body: "a '--\(declaration.long)' body holding a password"
            default: "a secret '--\(declaration.long)' value"
            }
        }
    }

    /// The way to give it that keeps it out of `ps`.
    static func instead(_ declaration: OptionDeclaration, _ text: String) -> String {
        let flag = "--" + declaration.long
        switch declaration.secret {
        case .always, .never:
            return "'\(flag) @FILE' or \(declaration.environmentName)"
        case .named(let separator, true):
            let name = text.prefix { $0 != separator }
            return "'\(flag) \(Self.shown(String(name), 60))\(separator)@FILE'"
        case .named:
            let short = declaration.short.map { "-\($0)" } ?? flag
            return "'\(short) @FILE' (a file holding the whole header line) or \(declaration.environmentName)"
        case .body:
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            return "'\(flag) \"\(parts.count > 1 ? "\(parts[0]) \(Self.shown(String(parts[1]), 80))" : "METHOD URL") @FILE\"' (the body from a file)"
        case .urlCredentials:
            return "\(declaration.environmentName) or a config file (-K) readable only by you"
        }
    }

    /// The user's own text, bounded and escaped for the terminal.
    static func shown(_ text: String, _ limit: Int) -> String {
        TerminalText.escapeLine(String(text.prefix(limit)))
    }
}
