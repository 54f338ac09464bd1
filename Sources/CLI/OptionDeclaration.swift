import Core

/// One command-line option, declared once: its names (and the older names
/// it still answers to), value, default, allowed values, help and section,
/// and the typed setting it fills. The parser, the environment names,
/// config files, `--help`, "did you mean", the README table check, the man
/// page and completions all read this, so adding an option is its
/// declaration in `OptionTable` plus its use. A value: the table is built
/// once per process and shared (`OptionTable.all`).
package struct OptionDeclaration: Sendable {
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
    /// Older long names that still work, on the command line, in the
    /// environment and in config files, each saying so on stderr (a
    /// renamed option, as SwiftFormat keeps its renamed options); never
    /// listed in `--help`, completions or the man page.
    package internal(set) var aliases: [String] = []
    /// Why the option itself is on its way out, and what to use instead:
    /// said on stderr whenever it is given. Nil for a current option.
    package internal(set) var deprecation: String?
    /// The setting it fills; cross-option rules ask about it by key path.
    let keyPath: PartialKeyPath<Options> & Sendable
    let apply: @Sendable (inout Options, [RawOptionValue], ValueContext) throws(UsageError) -> Void

    package var takesValue: Bool { valueName != nil }

    /// Whether `text`, as written, holds a secret itself rather than naming
    /// a file that does (`@FILE`; `@@…` is a literal `@…`).
    package func holdsLiteralSecret(_ text: String) -> Bool {
        secret.isLiteral(in: text)
    }

    /// `AUTHCODE_CLIENT_SECRET` for `client-secret`.
    package var environmentName: String {
        Self.environmentName(long)
    }

    static func environmentName(_ long: String) -> String {
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

    /// What to say on stderr when the option is given as `used` (as
    /// written: `--name`, `-n`, a variable, a config file's name): that it
    /// is deprecated, or that `used` is an old name of it (`current`, in the
    /// same form). Nil when there is nothing to say.
    package func warning(used: String, current: String) -> String? {
        if let deprecation { return "authcode: warning: '\(used)' is deprecated: \(deprecation)" }
        guard used != current else { return nil }
        return "authcode: warning: '\(used)' is an old name; use '\(current)'"
    }
}
