/// The bash script: one function for `complete -F`, using only bash's own
/// `compgen` and `compopt`, so it works in a plain bash without the
/// bash-completion package (no `_init_completion`).
enum BashCompletion {
    static func script(_ options: [OptionDeclaration]) -> String {
        var choices = ""
        var files: [String] = []
        var directories: [String] = []
        var silent: [String] = []
        for declaration in options where declaration.takesValue {
            let pattern = CompletionScript.names(declaration).joined(separator: "|")
            switch declaration.kind {
            case .choice:
                choices += "        \(pattern)) words=\(list(declaration.choices)) ;;\n"
            case .file: files.append(pattern)
            case .directory: directories.append(pattern)
            case .none, .text, .number, .url: silent.append(pattern)
            }
        }
        let every = options.flatMap(CompletionScript.names)
        var out = CompletionScript.banner(.bash) + "\n"
        out += """
        # Load it with:  source <(authcode --completion bash)
        # or install it as  $(pkg-config --variable=completionsdir bash-completion)/authcode.
        _authcode() {
            local cur=${COMP_WORDS[COMP_CWORD]} option= prefix= words=
            local IFS=$'\\n'
            ((COMP_CWORD > 0)) && option=${COMP_WORDS[COMP_CWORD-1]}
            # --name=value: bash splits the word at '=' (COMP_WORDBREAKS).
            if [[ $cur == = ]]; then
                cur=
            elif [[ $option == = ]] && ((COMP_CWORD > 1)); then
                option=${COMP_WORDS[COMP_CWORD-2]}
            elif [[ $cur == --*=* ]]; then
                option=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
            fi
            case $option in

        """
        out += choices
        if !files.isEmpty {
            out += "        \(files.joined(separator: "|")))\n"
            out += "            compopt -o filenames 2>/dev/null\n"
            out += "            COMPREPLY=($(compgen -P \"$prefix\" -f -- \"$cur\")); return ;;\n"
        }
        if !directories.isEmpty {
            out += "        \(directories.joined(separator: "|")))\n"
            out += "            compopt -o filenames 2>/dev/null\n"
            out += "            COMPREPLY=($(compgen -P \"$prefix\" -d -- \"$cur\")); return ;;\n"
        }
        if !silent.isEmpty {
            out += "        \(silent.joined(separator: "|")))\n"
            out += "            COMPREPLY=(); return ;;\n"
        }
        out += """
                *) [[ -n $prefix ]] && return
                   words=\(list(every)) ;;
            esac
            COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "$cur"))
        }
        complete -F _authcode authcode

        """
        return out
    }

    /// Words for `compgen -W`, one per line (IFS is a newline there), in
    /// `$'…'` quotes.
    static func list(_ words: [String]) -> String {
        "$'" + words.map { $0.replacing("\\", with: "\\\\").replacing("'", with: "\\'") }.joined(separator: "\\n") + "'"
    }
}
