/// The fish script: one `complete` line per option. File names are offered
/// only where the value is a file (`-F`), never as words of their own:
/// authcode takes options only.
enum FishCompletion {
    static func script(_ options: [OptionDeclaration]) -> String {
        var out = CompletionScript.banner(.fish) + "\n"
        out += """
        # Install it as ~/.config/fish/completions/authcode.fish, or load it with:
        #   authcode --completion fish | source
        complete -c authcode -f

        """
        for declaration in options {
            var line = "complete -c authcode"
            if let short = declaration.short { line += " -s \(short)" }
            line += " -l \(declaration.long)"
            if declaration.takesValue {
                switch declaration.kind {
                case .choice: line += " -x -a " + quoted(declaration.choices.joined(separator: " "))
                case .file: line += " -r -F"
                case .directory: line += " -x -a '(__fish_complete_directories (commandline -ct))'"
                case .none, .text, .number, .url: line += " -x"
                }
            }
            line += " -d " + quoted(CompletionScript.description(declaration))
            out += line + "\n"
        }
        return out
    }

    /// A fish single-quoted word: only `\` and `'` are special inside.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
