/// The shells `--completion` writes a script for (CompletionScript.swift).
package enum CompletionShell: String, Sendable, Equatable, CaseIterable {
    case bash, zsh, fish
}
