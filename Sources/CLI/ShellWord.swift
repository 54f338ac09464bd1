/// A word as a POSIX shell reads it back unchanged: as is when it holds only
/// characters no shell treats specially, else in single quotes (`'` written
/// `'\''`). For messages that suggest a command, and for generated scripts.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "/._+-,=:@%".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
