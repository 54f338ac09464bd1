import Core
import HTTP
import OAuth
import Walk
import Flow

/// The hand-rolled parser (ARCHITECTURE.md, "Constraints": no argument-parser). It reads the
/// command line, then `AUTHCODE_*` variables for what the command line did not
/// give, then the config files (`-K`, else `AUTHCODE_CONFIG`) for what both
/// left out, and hands the raw strings to `OptionRules`, which fills `Options`
/// through the option table (`@FILE` values resolved) and checks it.
package struct ArgumentParser {
    var environment: [String: String]
    var reader: ValueReader
    /// The names it knows: the option table's, or a test's.
    var table: OptionIndex

    init(environment: [String: String], reader: ValueReader = ValueReader(), table: OptionIndex = OptionTable.index) {
        self.environment = environment
        self.reader = reader
        self.table = table
    }

    typealias RawValue = RawOptionValue

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        // Help and version win over everything else, as in git and gh.
        for argument in arguments {
            if argument == "--" { break }
            if argument == "--help" || bundleAsksForHelp(argument) { return .help }
            if argument == "--version" { return .version }
        }
        // What an old or deprecated name says on stderr (OptionDeclaration.warning).
        var notices: [String] = []
        var raw = try collect(arguments, notices: &notices)
        if let answer = try OptionRules.answer(raw, reader: reader) { return answer }
        let configFiles = self.configFiles(raw)
        try addEnvironment(to: &raw, notices: &notices)
        try addConfigFiles(configFiles, to: &raw, notices: &notices)
        return .run(try OptionRules(raw: raw, reader: reader, environment: environment, notices: notices).validate())
    }

    /// `-h`, or `h` among bundled switches (`-vh`), before any letter that
    /// takes a value and so swallows the rest (`-Hh` is a header "h").
    func bundleAsksForHelp(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--") else { return false }
        for letter in argument.dropFirst() {
            if letter == "h" { return true }
            guard let spec = table.short(letter), !spec.takesValue else { return false }
        }
        return false
    }

    /// Pairs each option on the command line with its value(s), under its
    /// long name whatever name it was given by.
    func collect(_ arguments: [String], notices: inout [String]) throws(UsageError) -> [String: [RawValue]] {
        var raw: [String: [RawValue]] = [:]
        var index = 0
        func record(_ spec: OptionDeclaration, _ value: String) {
            if spec.repeatable {
                raw[spec.long, default: []].append(RawValue(text: value, fromCommandLine: true))
            } else {
                // Like curl: a later occurrence wins, so scripts can override.
                raw[spec.long] = [RawValue(text: value, fromCommandLine: true)]
            }
        }
        func value(for spec: OptionDeclaration, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else {
                throw UsageError("missing value for '\(spec.display)'")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), argument.count > 2 {
                let body = argument.dropFirst(2)
                let name: String
                let inline: String?
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inline = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                    inline = nil
                }
                guard let spec = table.named(name) else {
                    throw Self.unknown("--" + name)
                }
                if let warning = spec.warning(used: "--" + name, current: "--" + spec.long) { notices.append(warning) }
                if spec.takesValue {
                    record(spec, try value(for: spec, inline: inline))
                } else if inline != nil {
                    throw UsageError("'--\(spec.long)' takes no value")
                } else {
                    record(spec, "true")
                }
            } else if argument.hasPrefix("-"), argument.count > 1, argument != "--" {
                // Short options: switches may be bundled (-vk); a value option
                // takes the rest of the word or the next argument (-H 'A: b').
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let spec = table.short(letter) else {
                        // `-client-id`: a long option with one dash, not a
                        // bundle of letters (issue 31 item 7).
                        let word = String(argument.prefix { $0 != "=" })
                        if word.count > 4, Suggestion.closest(to: word) != nil { throw Self.unknown(word) }
                        throw Self.unknown("-" + String(letter))
                    }
                    if let warning = spec.warning(used: "-" + String(letter), current: "-" + String(letter)) { notices.append(warning) }
                    if spec.takesValue {
                        record(spec, try value(for: spec, inline: letters.isEmpty ? nil : String(letters)))
                        break
                    }
                    record(spec, "true")
                }
            } else if argument == "--" {
                if index + 1 < arguments.count {
                    throw UsageError("unexpected argument '\(arguments[index + 1])': authcode takes options only")
                }
            } else {
                throw UsageError("unexpected argument '\(argument)': authcode takes options only")
            }
            index += 1
        }
        return raw
    }

    /// `AUTHCODE_<NAME>` for every option the command line left out (an
    /// alias's variable when the option's own is not set). A repeatable
    /// option takes one value per line.
    func addEnvironment(to raw: inout [String: [RawValue]], notices: inout [String]) throws(UsageError) {
        for spec in table.declarations where raw[spec.long] == nil && spec.role == .setting {
            // A flag wins over the environment, including a setting it
            // conflicts with: -q beats AUTHCODE_VERBOSE=1 and the reverse.
            if let rival = OptionRules.rivals[spec.long], raw[rival] != nil { continue }
            let names = [spec.environmentName] + spec.aliases.map(OptionDeclaration.environmentName)
            guard let name = names.first(where: { environment[$0] != nil }), let value = environment[name] else { continue }
            if let warning = spec.warning(used: name, current: spec.environmentName) { notices.append(warning) }
            if !spec.takesValue {
                switch value.lowercased() {
                case "1", "true", "yes", "on": raw[spec.long] = [RawValue(text: "true", fromCommandLine: false)]
                case "", "0", "false", "no", "off": continue
                default:
                    throw UsageError("\(name) must be 1/true/yes or 0/false/no, not '\(value)'")
                }
            } else if spec.repeatable {
                raw[spec.long] = Self.lines(value).map { RawValue(text: $0, fromCommandLine: false) }
            } else {
                raw[spec.long] = [RawValue(text: value, fromCommandLine: false)]
            }
        }
    }

    /// A repeatable option's environment variable: one value per line.
    static func lines(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init).filter { !$0.isEmpty }
    }

    /// The config files to read: those named on the command line, else
    /// those of the environment (one per line) — a flag wins over the
    /// environment here too. None unless named.
    func configFiles(_ raw: [String: [RawValue]]) -> [String] {
        guard let spec = table.declarations.first(where: { $0.role == .configFile }) else { return [] }
        if let given = raw[spec.long] { return given.map(\.text) }
        return environment[spec.environmentName].map(Self.lines) ?? []
    }

    /// Config files fill what the command line and the environment left
    /// out; among files a later one wins. A repeatable option collects its
    /// config values first, then those of the command line (or else the
    /// environment), as curl puts `.curlrc` before the command line.
    func addConfigFiles(_ paths: [String], to raw: inout [String: [RawValue]], notices: inout [String]) throws(UsageError) {
        var layer: [String: [RawValue]] = [:]
        var repeatable: Set<String> = []
        for path in paths {
            for entry in try ConfigFile.read(path, index: table).entries {
                if let warning = entry.warning { notices.append(warning) }
                let long = entry.declaration.long
                let value = RawValue(text: entry.value, fromCommandLine: false, source: ConfigFile.source(path, line: entry.line))
                if entry.declaration.repeatable {
                    repeatable.insert(long)
                    layer[long, default: []].append(value)
                } else {
                    layer[long] = [value]
                    if let rival = OptionRules.rivals[long] { layer[rival] = nil }
                }
            }
        }
        for (long, values) in layer {
            if repeatable.contains(long) {
                raw[long] = values + (raw[long] ?? [])
            } else if raw[long] == nil, OptionRules.rivals[long].map({ raw[$0] == nil }) ?? true {
                raw[long] = values
            }
        }
    }

    static func unknown(_ option: String) -> UsageError {
        let hint: String
        if let suggestion = Suggestion.closest(to: option) {
            hint = "Did you mean '\(suggestion)'? See 'authcode --help'."
        } else {
            hint = "See 'authcode --help'."
        }
        return UsageError("unknown option '\(option)'", hint: hint)
    }
}
