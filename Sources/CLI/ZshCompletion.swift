/// The zsh script: one `_arguments` spec per name, so zsh shows each
/// option's description, completes a choice's values, files and
/// directories, and offers a single-valued option only once. It works both
/// installed as `_authcode` in `$fpath` and sourced.
enum ZshCompletion {
    static func script(_ options: [OptionDeclaration]) -> String {
        var out = "#compdef authcode\n" + CompletionScript.banner(.zsh) + "\n"
        out += """
        # Install it as _authcode in a directory of $fpath (before compinit runs),
        # or load it with:  source <(authcode --completion zsh)

        _authcode() {
          _arguments -s -S \\

        """
        let specs = options.flatMap(specs)
        out += specs.map { "    " + $0 }.joined(separator: " \\\n") + "\n"
        out += """
        }

        # Autoloaded from $fpath, this file is the body of _authcode: define and
        # run it. Sourced, register it.
        if [[ $funcstack[1] == _authcode ]]; then
          _authcode "$@"
        else
          compdef _authcode authcode
        fi

        """
        return out
    }

    /// `'(-o --output)-o+[description]:file:_files'` and its long twin.
    static func specs(_ declaration: OptionDeclaration) -> [String] {
        let names = CompletionScript.names(declaration)
        // A single-valued option is offered once; a repeatable one again and again.
        let exclusion = declaration.repeatable ? "*" : "(" + names.joined(separator: " ") + ")"
        let description = "[" + escaped(CompletionScript.description(declaration)) + "]"
        return names.map { name in
            // -H+: the value may follow in the same word; --name=: after '=' or in the next word.
            let form = declaration.takesValue ? (name.hasPrefix("--") ? "=" : "+") : ""
            return quoted(exclusion + name + form + description + action(declaration))
        }
    }

    /// What completes the value: `:message:action`.
    static func action(_ declaration: OptionDeclaration) -> String {
        guard let valueName = declaration.valueName else { return "" }
        let message = ":" + escaped(valueName)
        switch declaration.kind {
        case .choice: return message + ":(" + declaration.choices.joined(separator: " ") + ")"
        case .file: return message + ":_files"
        case .directory: return message + ":_files -/"
        // A single space: show the message, complete nothing.
        case .none, .text, .number, .url: return message + ": "
        }
    }

    /// Text inside a spec: `_arguments` reads `\`, `[`, `]` and `:` specially.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\[]:".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A zsh single-quoted word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
