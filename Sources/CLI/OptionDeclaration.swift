import Core
import HTTP
import OAuth
import Walk
import Flow

/// One command-line option, declared once: its names, value, default,
/// allowed values, help and section, and the typed setting it fills.
/// The parser, the environment names, `--help`, "did you mean", the README
/// table check (and the man page and completions) all read this, so adding
/// an option is its declaration in `OptionTable` plus its use.
package struct OptionDeclaration {
    package let long: String
    package let short: Character?
    /// Placeholder shown in help and errors (`<url>`); nil for a switch.
    package let valueName: String?
    package let section: OptionSection
    /// What it does; `--help` adds the allowed values and the default.
    package let summary: String
    package let repeatable: Bool
    /// The allowed values, from the setting's `CaseIterable` type.
    package let choices: [String]
    /// The default as shown in help, read from `Options()`: typed once.
    package internal(set) var defaultText: String?
    package let kind: OptionValueKind
    /// Applied before every other option: `--timeout` bounds how long an
    /// `@FILE` value may take to read.
    package let appliesFirst: Bool
    /// Where the option may come from and what the parser does with it.
    package internal(set) var role = OptionRole.setting
    /// Whether a value written literally is a secret: a config file that
    /// holds one must not be readable by others (`ConfigFile`).
    package internal(set) var secret = SecretValue.never
    /// The setting it fills; cross-option rules ask about it by key path.
    let keyPath: PartialKeyPath<Options>
    let apply: (inout Options, [RawOptionValue], ValueContext) throws(UsageError) -> Void

    package var takesValue: Bool { valueName != nil }

    /// Whether `text`, as written, holds a secret itself rather than naming
    /// a file that does (`@FILE`; `@@…` is a literal `@…`).
    package func holdsLiteralSecret(_ text: String) -> Bool {
        func literal<S: StringProtocol>(_ value: S) -> Bool {
            !value.isEmpty && !(value.hasPrefix("@") && !value.hasPrefix("@@"))
        }
        switch secret {
        case .never:
            return false
        case .always:
            return literal(text)
        case .named(let separator, let fileValue):
            // The whole value may name a file holding `NAME=VALUE` (-H @FILE).
            guard literal(text), let cut = text.firstIndex(of: separator) else { return false }
            guard Redactor.isSecretName(text[..<cut].trimmed) else { return false }
            let value = text[text.index(after: cut)...].drop(while: { $0 == " " || $0 == "\t" })
            return fileValue ? literal(value) : !value.isEmpty
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

    /// `AUTHCODE_CLIENT_SECRET` for `client-secret`.
    package var environmentName: String {
        "AUTHCODE_" + String(long.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// `--client-id <id>` as used in help and error messages.
    package var display: String {
        valueName.map { "--\(long) <\($0)>" } ?? "--\(long)"
    }

    /// The help line: the summary, then the allowed values and the default.
    package var help: String {
        var text = summary
        if !choices.isEmpty { text += "; one of " + choices.joined(separator: ", ") }
        if let defaultText { text += " (default: \(defaultText))" }
        return text
    }
}

/// The `--help` sections, in order.
package enum OptionSection: String, Sendable, CaseIterable {
    case endpoints = "ENDPOINTS"
    case client = "CLIENT"
    case request = "AUTHORIZATION REQUEST"
    case profile = "MODERN CLIENT PROFILE"
    case walk = "LOGIN AND CONSENT PAGES"
    case output = "OUTPUT"
    case verification = "VERIFICATION"
    case lifecycle = "TOKEN REUSE"
    case batch = "MANY USERS"
    case transport = "TRANSPORT AND TLS"
    case general = "GENERAL"
}

/// What the parser does with an option besides filling its setting.
package enum OptionRole: Sendable, Equatable {
    /// A setting: from the command line, the environment or a config file.
    case setting
    /// Answered on its own, from the command line only (help, version, a
    /// completion script): nothing else is read, nothing is checked.
    case answer
    /// Names config files: read by the parser before the settings are
    /// built, and never inside a config file itself.
    case configFile
}

/// Which values of an option are secrets when written out literally (an
/// `@FILE` reference names a secret but is none).
package enum SecretValue: Sendable, Equatable {
    case never
    /// Every value (a client secret, a refresh token).
    case always
    /// `NAME=VALUE` or `Name: value` whose name reads as a secret by the
    /// redaction rule (`Redactor.isSecretName`: password, pin, otp,
    /// authorization…); `fileValue`: the VALUE part may itself be `@FILE`.
    case named(separator: Character, fileValue: Bool)
    /// `METHOD URL [BODY]` whose BODY, a JSON object or a form, has a field
    /// whose name reads as a secret (a login API's password).
    case body
    /// A URL carrying `user:password@` (a proxy's credentials).
    case urlCredentials
}

/// What kind of value an option takes, for shells and man pages: a file
/// name completes as a path, a choice from its list.
package enum OptionValueKind: String, Sendable, Equatable {
    case none, text, number, url, file, directory, choice
}

/// One value as given, and whether it came from the command line (where
/// other users can read it in `ps`), the environment or a config file.
package struct RawOptionValue: Equatable, Sendable {
    package var text: String
    package var fromCommandLine: Bool
    /// `FILE line N` for a value from a config file, so an error about it
    /// says where to fix it.
    package var source: String?

    package init(text: String, fromCommandLine: Bool, source: String? = nil) {
        self.text = text
        self.fromCommandLine = fromCommandLine
        self.source = source
    }
}

/// What a value parser may use: the flag's name for messages, the `@FILE`
/// reader, and where to leave a hint for stderr.
struct ValueContext {
    let flag: String
    /// `--totp-secret <secret>`.
    let display: String
    let reader: ValueReader

    /// The value itself, or the contents of the file it names with `@`.
    func resolve(_ text: String, label: String? = nil) throws(UsageError) -> String {
        try reader.resolve(text, for: label ?? flag)
    }

    /// `invalid value 'x' for '--flag': expected …`, the usual usage error.
    func invalid(_ text: String?, expected: String) -> UsageError {
        UsageError("invalid value " + (text.map { "'\($0)' " } ?? "") + "for '\(flag)': expected \(expected)")
    }
}

/// How the `@FILE` convention applies to a value.
enum FileResolution {
    /// The whole value may be `@FILE`.
    case whole
    /// The value is itself a path (`--users FILE`), or the parser resolves
    /// parts of it (`NAME=@FILE`).
    case byParser
}

extension OptionDeclaration {
    init(_ long: String, short: Character?, valueName: String?, section: OptionSection, summary: String,
         repeatable: Bool = false, choices: [String] = [], defaultText: String? = nil, kind: OptionValueKind,
         appliesFirst: Bool = false, keyPath: PartialKeyPath<Options>,
         apply: @escaping (inout Options, [RawOptionValue], ValueContext) throws(UsageError) -> Void) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.section = section
        self.summary = summary
        self.repeatable = repeatable
        self.choices = choices
        self.defaultText = defaultText
        self.kind = kind
        self.appliesFirst = appliesFirst
        self.keyPath = keyPath
        self.apply = apply
    }

    /// A single value that fills an optional setting; the last one given wins.
    static func value<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, V?>,
                         _ section: OptionSection, kind: OptionValueKind = .text, files: FileResolution = .whole,
                         _ summary: String,
                         parse: @escaping (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary, kind: kind,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            let text = files == .whole ? try context.resolve(given.text) : given.text
            options[keyPath: keyPath] = try parse(text, context)
        }
    }

    /// A single value whose setting has a default in `Options`, shown in help.
    static func value<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, V>,
                         _ section: OptionSection, kind: OptionValueKind = .text, appliesFirst: Bool = false,
                         _ summary: String, showDefault: (V) -> String = { "\($0)" },
                         parse: @escaping (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary,
                          defaultText: showDefault(Options()[keyPath: keyPath]), kind: kind, appliesFirst: appliesFirst,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            options[keyPath: keyPath] = try parse(try context.resolve(given.text), context)
        }
    }

    /// One of a fixed set, from the setting's `CaseIterable` type, matched
    /// without regard to case.
    static func choice<E: RawRepresentable & CaseIterable>(_ long: String, _ valueName: String, _ keyPath: WritableKeyPath<Options, E>,
                                                           _ section: OptionSection, _ summary: String,
                                                           showDefault: Bool = true) -> OptionDeclaration where E.RawValue == String {
        OptionDeclaration(long, short: nil, valueName: valueName, section: section, summary: summary,
                          choices: E.allCases.map(\.rawValue),
                          defaultText: showDefault ? Options()[keyPath: keyPath].rawValue : nil, kind: .choice,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            options[keyPath: keyPath] = try Self.member(of: E.self, try context.resolve(given.text), context)
        }
    }

    /// A choice with no default: nil until given.
    static func choice<E: RawRepresentable & CaseIterable>(_ long: String, _ valueName: String, _ keyPath: WritableKeyPath<Options, E?>,
                                                           _ section: OptionSection, _ summary: String) -> OptionDeclaration where E.RawValue == String {
        OptionDeclaration(long, short: nil, valueName: valueName, section: section, summary: summary,
                          choices: E.allCases.map(\.rawValue), kind: .choice,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            options[keyPath: keyPath] = try Self.member(of: E.self, try context.resolve(given.text), context)
        }
    }

    /// A repeatable option: every value, in order (config files, then the
    /// environment or the command line).
    static func list<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, [V]>,
                        _ section: OptionSection, kind: OptionValueKind = .text, files: FileResolution = .whole,
                        _ summary: String,
                        parse: @escaping (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary, repeatable: true,
                          kind: kind, keyPath: keyPath) { options, values, context throws(UsageError) in
            for given in values {
                let text = files == .whole ? try context.resolve(given.text) : given.text
                options[keyPath: keyPath].append(try parse(text, context))
            }
        }
    }

    /// A switch: on when given (or `AUTHCODE_NAME=1`).
    static func flag(_ long: String, short: Character? = nil, _ keyPath: WritableKeyPath<Options, Bool>,
                     _ section: OptionSection, _ summary: String) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: nil, section: section, summary: summary, kind: .none,
                          keyPath: keyPath) { options, values, _ throws(UsageError) in
            if !values.isEmpty { options[keyPath: keyPath] = true }
        }
    }

    static func member<E: RawRepresentable & CaseIterable>(of type: E.Type, _ text: String, _ context: ValueContext) throws(UsageError) -> E
        where E.RawValue == String {
        if let match = E.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            return match
        }
        throw context.invalid(text, expected: "one of " + E.allCases.map(\.rawValue).joined(separator: ", "))
    }
}
