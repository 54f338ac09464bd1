import Core
import Flow

/// The kinds of declaration the table is written in (`.value`, `.choice`,
/// `.list`, `.flag`), each filling its setting through a key path.
extension OptionDeclaration {
    init(_ long: String, short: Character?, valueName: String?, section: OptionSection, summary: String,
         repeatable: Bool = false, choices: [String] = [], defaultText: String? = nil, kind: OptionValueKind,
         appliesFirst: Bool = false, keyPath: PartialKeyPath<Options> & Sendable,
         apply: @escaping @Sendable (inout Options, [RawOptionValue], ValueContext) throws(UsageError) -> Void) {
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
    static func value<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, V?> & Sendable,
                         _ section: OptionSection, kind: OptionValueKind = .text, files: FileResolution = .whole,
                         _ summary: String,
                         parse: @escaping @Sendable (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary, kind: kind,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            let text = files == .whole ? try context.resolve(given.text) : given.text
            options[keyPath: keyPath] = try parse(text, context)
        }
    }

    /// A single value whose setting has a default in `Options`, shown in help.
    static func value<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, V> & Sendable,
                         _ section: OptionSection, kind: OptionValueKind = .text, appliesFirst: Bool = false,
                         _ summary: String, showDefault: (V) -> String = { "\($0)" },
                         parse: @escaping @Sendable (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary,
                          defaultText: showDefault(Options()[keyPath: keyPath]), kind: kind, appliesFirst: appliesFirst,
                          keyPath: keyPath) { options, values, context throws(UsageError) in
            guard let given = values.last else { return }
            options[keyPath: keyPath] = try parse(try context.resolve(given.text), context)
        }
    }

    /// One of a fixed set, from the setting's `CaseIterable` type, matched
    /// without regard to case.
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ long: String, _ valueName: String, _ keyPath: WritableKeyPath<Options, E> & Sendable,
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
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ long: String, _ valueName: String, _ keyPath: WritableKeyPath<Options, E?> & Sendable,
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
    static func list<V>(_ long: String, short: Character? = nil, _ valueName: String, _ keyPath: WritableKeyPath<Options, [V]> & Sendable,
                        _ section: OptionSection, kind: OptionValueKind = .text, files: FileResolution = .whole,
                        _ summary: String,
                        parse: @escaping @Sendable (String, ValueContext) throws(UsageError) -> V) -> OptionDeclaration {
        OptionDeclaration(long, short: short, valueName: valueName, section: section, summary: summary, repeatable: true,
                          kind: kind, keyPath: keyPath) { options, values, context throws(UsageError) in
            for given in values {
                let text = files == .whole ? try context.resolve(given.text) : given.text
                options[keyPath: keyPath].append(try parse(text, context))
            }
        }
    }

    /// A switch: on when given (or `AUTHCODE_NAME=1`).
    static func flag(_ long: String, short: Character? = nil, _ keyPath: WritableKeyPath<Options, Bool> & Sendable,
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

/// What the table's entries may add to a declaration: each returns a changed copy.
extension OptionDeclaration {
    /// For a required value whose empty initial value is no default.
    var withoutDefault: OptionDeclaration {
        var copy = self
        copy.defaultText = nil
        return copy
    }

    /// Answered alone from the command line (`OptionRole.answer`).
    var answering: OptionDeclaration {
        var copy = self
        copy.role = .answer
        return copy
    }

    /// Names config files (`OptionRole.configFile`).
    var namingConfigFiles: OptionDeclaration {
        var copy = self
        copy.role = .configFile
        return copy
    }

    /// Which of its values are secrets when written literally.
    func secret(_ kind: SecretValue) -> OptionDeclaration {
        var copy = self
        copy.secret = kind
        return copy
    }

    /// Older names that still work, each saying so (`aliases`).
    func alias(_ names: String...) -> OptionDeclaration {
        var copy = self
        copy.aliases += names
        return copy
    }

    /// On its way out: `why` is said whenever it is given (`deprecation`).
    func deprecated(_ why: String) -> OptionDeclaration {
        var copy = self
        copy.deprecation = why
        return copy
    }
}
