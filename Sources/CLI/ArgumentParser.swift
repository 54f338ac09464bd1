import Core
import HTTP
import OAuth
import Walk
import Flow

/// The hand-rolled parser (ARCHITECTURE.md, "Constraints": no argument-parser). It reads the
/// command line, then `AUTHCODE_*` variables for what the command line did not
/// give, resolves `@FILE` values, and hands the raw strings to `OptionValidator`.
package struct ArgumentParser {
    var environment: [String: String]
    var reader: ValueReader

    init(environment: [String: String], reader: ValueReader = ValueReader()) {
        self.environment = environment
        self.reader = reader
    }

    /// One value as given, and whether it came from the command line (where
    /// other users can read it in `ps`) or from the environment.
    struct RawValue: Equatable {
        var text: String
        var fromCommandLine: Bool
    }

    func parse(_ arguments: [String]) throws(Failure) -> ParsedCommand {
        // Help and version win over everything else, as in git and gh.
        for argument in arguments {
            if argument == "--" { break }
            if argument == "--help" || Self.bundleAsksForHelp(argument) { return .help }
            if argument == "--version" { return .version }
        }
        var raw = try collect(arguments)
        try addEnvironment(to: &raw)
        var options = try OptionValidator(raw: raw, reader: reader).validate()
        options.proxy = ProxySettings(environment: environment)
        if options.cache && options.cacheDir == nil {
            options.cacheDir = CacheDirectory.defaultPath(environment: environment)
        }
        return .run(options)
    }

    /// `-h`, or `h` among bundled switches (`-vh`), before any letter that
    /// takes a value and so swallows the rest (`-Hh` is a header "h").
    static func bundleAsksForHelp(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--") else { return false }
        for letter in argument.dropFirst() {
            if letter == "h" { return true }
            guard let spec = OptionSpec.short(letter), !spec.takesValue else { return false }
        }
        return false
    }

    /// Pairs each option on the command line with its value(s).
    func collect(_ arguments: [String]) throws(Failure) -> [OptionName: [RawValue]] {
        var raw: [OptionName: [RawValue]] = [:]
        var index = 0
        func record(_ spec: OptionSpec, _ value: String) {
            if spec.repeatable {
                raw[spec.name, default: []].append(RawValue(text: value, fromCommandLine: true))
            } else {
                // Like curl: a later occurrence wins, so scripts can override.
                raw[spec.name] = [RawValue(text: value, fromCommandLine: true)]
            }
        }
        func value(for spec: OptionSpec, inline: String?) throws(Failure) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else {
                throw Failure.usage("missing value for '\(spec.display)'")
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
                guard let spec = OptionSpec.named(name) else {
                    throw Self.unknown("--" + name)
                }
                if spec.takesValue {
                    record(spec, try value(for: spec, inline: inline))
                } else if inline != nil {
                    throw Failure.usage("'--\(spec.long)' takes no value")
                } else {
                    record(spec, "true")
                }
            } else if argument.hasPrefix("-"), argument.count > 1, argument != "--" {
                // Short options: switches may be bundled (-vk); a value option
                // takes the rest of the word or the next argument (-H 'A: b').
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let spec = OptionSpec.short(letter) else {
                        throw Self.unknown("-" + String(letter))
                    }
                    if spec.takesValue {
                        record(spec, try value(for: spec, inline: letters.isEmpty ? nil : String(letters)))
                        break
                    }
                    record(spec, "true")
                }
            } else if argument == "--" {
                if index + 1 < arguments.count {
                    throw Failure.usage("unexpected argument '\(arguments[index + 1])': authcode takes options only")
                }
            } else {
                throw Failure.usage("unexpected argument '\(argument)': authcode takes options only")
            }
            index += 1
        }
        return raw
    }

    /// `AUTHCODE_<NAME>` for every option the command line left out. A
    /// repeatable option takes one value per line.
    func addEnvironment(to raw: inout [OptionName: [RawValue]]) throws(Failure) {
        for spec in OptionSpec.all where raw[spec.name] == nil {
            guard spec.name != .help, spec.name != .version else { continue }
            // A flag wins over the environment, including a setting it
            // conflicts with: -q beats AUTHCODE_VERBOSE=1 and the reverse.
            if let rival = Self.rivals[spec.name], raw[rival] != nil { continue }
            guard let value = environment[spec.environmentName] else { continue }
            if !spec.takesValue {
                switch value.lowercased() {
                case "1", "true", "yes", "on": raw[spec.name] = [RawValue(text: "true", fromCommandLine: false)]
                case "", "0", "false", "no", "off": continue
                default:
                    throw Failure.usage("\(spec.environmentName) must be 1/true/yes or 0/false/no, not '\(value)'")
                }
            } else if spec.repeatable {
                let lines = value.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init).filter { !$0.isEmpty }
                raw[spec.name] = lines.map { RawValue(text: $0, fromCommandLine: false) }
            } else {
                raw[spec.name] = [RawValue(text: value, fromCommandLine: false)]
            }
        }
    }

    /// Switches that exclude each other: either one on the command line
    /// silences the other's environment variable.
    static let rivals: [OptionName: OptionName] = [.verbose: .quiet, .quiet: .verbose]

    static func unknown(_ option: String) -> Failure {
        let hint: String
        if let suggestion = Suggestion.closest(to: option) {
            hint = "Did you mean '\(suggestion)'? See 'authcode --help'."
        } else {
            hint = "See 'authcode --help'."
        }
        return Failure.usage("unknown option '\(option)'", hint: hint)
    }
}
