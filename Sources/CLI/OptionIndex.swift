import Flow

/// The option table looked up by name: long names and aliases, short
/// letters, and the setting each fills. Made once from the declarations
/// (`OptionTable.index`); a test makes one from its own to try an alias.
package struct OptionIndex: Sendable {
    package let declarations: [OptionDeclaration]
    private let byName: [String: OptionDeclaration]
    private let byLetter: [Character: OptionDeclaration]

    package init(_ declarations: [OptionDeclaration]) {
        self.declarations = declarations
        var byName: [String: OptionDeclaration] = [:]
        var byLetter: [Character: OptionDeclaration] = [:]
        for declaration in declarations {
            // The first declaration of a name wins, as a search in order did.
            for name in [declaration.long] + declaration.aliases where byName[name] == nil { byName[name] = declaration }
            if let letter = declaration.short, byLetter[letter] == nil { byLetter[letter] = declaration }
        }
        self.byName = byName
        self.byLetter = byLetter
    }

    /// The declaration answering to `--name`: its long name or an alias.
    package func named(_ name: String) -> OptionDeclaration? {
        byName[name]
    }

    package func short(_ letter: Character) -> OptionDeclaration? {
        byLetter[letter]
    }

    /// The declaration that fills a setting.
    func declaration(for keyPath: PartialKeyPath<Options>) -> OptionDeclaration? {
        declarations.first { $0.keyPath == keyPath }
    }
}
