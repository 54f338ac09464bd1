import Core

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One config file (`-K FILE`, `AUTHCODE_CONFIG`), in curl's syntax (curl(1),
/// `--config`): one option per line — `--name value`, `-H value`, `name value`,
/// `name = value` or `name: value`, a switch alone; blank lines and lines whose
/// first non-blank character is `#` are skipped. A value with whitespace, or
/// one that starts with `=` or `:`, is written in double quotes, where `\"`,
/// `\\`, `\t`, `\n`, `\r` and `\v` are escapes and a backslash before any
/// other character is dropped. curl warns about text after an unquoted value
/// and ignores it; here it is an error, since `scope openid profile` would
/// otherwise silently ask for `openid` alone.
struct ConfigFile {
    struct Entry {
        let declaration: OptionDeclaration
        let value: String
        let line: Int
        /// Said on stderr: the option was named by an old name, or is deprecated.
        var warning: String? = nil
    }

    let path: String
    let entries: [Entry]

    /// `team.conf line 3`: where an error about a value points.
    static func source(_ path: String, line: Int) -> String {
        "\(path) line \(line)"
    }

    /// Reads and checks the file: it must be a regular file (a FIFO or a
    /// device would block or never end), UTF-8 text, every line an option
    /// that may be set from a file, and a secret written in it literally
    /// must not be readable by group or others — as ssh refuses a private
    /// key others can read.
    static func read(_ path: String, index: OptionIndex = OptionTable.index) throws(UsageError) -> ConfigFile {
        let (bytes, othersMayRead) = try load(path)
        let entries = try parse(bytes, path: path, index: index)
        if othersMayRead, let exposed = entries.first(where: { $0.declaration.holdsLiteralSecret($0.value) }) {
            throw UsageError(
                          "config file '\(path)' holds a secret ('--\(exposed.declaration.long)' on line \(exposed.line)) and group or others can read it; run 'chmod 600 \(ShellWord.quoted(path))'",
                          hint: "Or keep the secret in a file of its own and name that file with @FILE in the config file.")
        }
        return ConfigFile(path: path, entries: entries)
    }

    /// The file's bytes, and whether its mode lets group or others read it.
    static func load(_ path: String) throws(UsageError) -> (bytes: [UInt8], othersMayRead: Bool) {
        func failure(_ reason: String) -> UsageError {
            UsageError("cannot read config file '\(path)': \(reason)")
        }
        guard !path.isEmpty else { throw UsageError("a config file name is empty") }
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw failure(errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : "cannot open it")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("cannot open it") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("it is a directory")
        default: throw failure("it is not a regular file")
        }
        do {
            let bytes = try BoundedRead.all(descriptor: descriptor, timeout: 30, what: "it")
            return (bytes, info.st_mode & 0o044 != 0)
        } catch {
            throw failure(error.message)
        }
    }

    static func parse(_ bytes: [UInt8], path: String, index: OptionIndex = OptionTable.index) throws(UsageError) -> [Entry] {
        var entries: [Entry] = []
        var number = 0
        for var line in bytes.split(separator: Byte.lf, omittingEmptySubsequences: false) {
            number += 1
            if line.last == Byte.cr { line = line.dropLast() }
            if number == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            if let entry = try ConfigLine(bytes: line, path: path, number: number, index: index).entry() {
                entries.append(entry)
            }
        }
        return entries
    }
}

/// One line of a config file, taken apart.
private struct ConfigLine {
    let bytes: ArraySlice<UInt8>
    let path: String
    let number: Int
    let index: OptionIndex

    var source: String { ConfigFile.source(path, line: number) }

    func error(_ message: String, hint: String? = "See 'authcode --help'.") -> UsageError {
        UsageError(message, at: source, hint: hint)
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == Byte.space || byte == Byte.tab }

    func entry() throws(UsageError) -> ConfigFile.Entry? {
        var rest = bytes.drop(while: Self.isBlank)
        guard let first = rest.first, first != ASCII.hash else { return nil }
        guard !bytes.contains(0) else { throw error("a NUL byte is not text") }
        let dashed = first == Byte.dash
        let declaration: OptionDeclaration
        // The name as written, and the option's own name written alike.
        let used: (String) -> (String, String)
        if rest.starts(with: [Byte.dash, Byte.dash]) {
            let name = rest.dropFirst(2).prefix(while: { !Self.isBlank($0) && $0 != ASCII.equals })
            declaration = try lookUp("--" + ASCII.string(name), index.named(ASCII.string(name)))
            used = { long in ("--" + ASCII.string(name), "--" + long) }
            rest = rest.dropFirst(2 + name.count)
        } else if dashed {
            let letters = rest.dropFirst().prefix(while: { !Self.isBlank($0) })
            let typed = ASCII.string(letters)
            guard typed.count == 1, let letter = typed.first else {
                throw error("'-\(typed)': write one short option per line, its value after a space")
            }
            declaration = try lookUp("-" + typed, index.short(letter))
            used = { _ in ("-" + typed, "-" + typed) }
            rest = rest.dropFirst(1 + letters.count)
        } else {
            let name = rest.prefix(while: { !Self.isBlank($0) && $0 != ASCII.equals && $0 != ASCII.colon })
            declaration = try lookUp(ASCII.string(name), index.named(ASCII.string(name)))
            used = { long in (ASCII.string(name), long) }
            rest = rest.dropFirst(name.count)
        }
        switch declaration.role {
        case .setting: break
        case .configFile:
            throw error("a config file cannot name another one ('--\(declaration.long)'); name every file on the command line")
        case .answer:
            throw error("'--\(declaration.long)' cannot be set in a config file")
        }
        // The separator: blanks, and `=` (or `:` after a bare name).
        rest = rest.drop(while: Self.isBlank)
        if let separator = rest.first, separator == ASCII.equals || (separator == ASCII.colon && !dashed) {
            rest = rest.dropFirst().drop(while: Self.isBlank)
        }
        guard declaration.takesValue else {
            guard rest.isEmpty || rest.first == ASCII.hash else {
                throw error("'--\(declaration.long)' is a switch and takes no value; write it alone on its line")
            }
            return ConfigFile.Entry(declaration: declaration, value: "true", line: number, warning: warning(declaration, used))
        }
        guard !rest.isEmpty else { throw error("missing value for '\(declaration.display)'") }
        let value = try rest.first == Byte.quote ? quoted(rest, declaration) : unquoted(rest, declaration)
        guard let text = String(validating: value, as: UTF8.self) else {
            throw error("the value for '--\(declaration.long)' is not UTF-8 text")
        }
        return ConfigFile.Entry(declaration: declaration, value: text, line: number, warning: warning(declaration, used))
    }

    /// An old name or a deprecated option, said with the file and line.
    func warning(_ declaration: OptionDeclaration, _ used: (String) -> (String, String)) -> String? {
        let (typed, current) = used(declaration.long)
        return declaration.warning(used: typed, current: current).map { "\($0) (\(source))" }
    }

    func lookUp(_ typed: String, _ found: OptionDeclaration?) throws(UsageError) -> OptionDeclaration {
        guard let found else {
            var failure = ArgumentParser.unknown(typed)
            failure.message += " in a config file"
            failure.location = source
            throw failure
        }
        return found
    }

    /// A value in double quotes, escapes resolved (curl's unslashquote).
    func quoted(_ text: ArraySlice<UInt8>, _ declaration: OptionDeclaration) throws(UsageError) -> [UInt8] {
        var value: [UInt8] = []
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            var byte = text[index]
            if byte == Byte.quote {
                let after = text[text.index(after: index)...].drop(while: Self.isBlank)
                guard after.isEmpty || after.first == ASCII.hash else {
                    throw error("text after the closing quote of the value for '--\(declaration.long)'")
                }
                return value
            }
            if byte == Byte.backslash {
                index = text.index(after: index)
                guard index < text.endIndex else { break }
                byte = text[index]
                switch byte {
                case UInt8(ascii: "t"): byte = Byte.tab
                case UInt8(ascii: "n"): byte = Byte.lf
                case UInt8(ascii: "r"): byte = Byte.cr
                case UInt8(ascii: "v"): byte = 0x0B
                default: break
                }
            }
            value.append(byte)
            index = text.index(after: index)
        }
        throw error("the value for '--\(declaration.long)' has no closing double quote")
    }

    /// A value without quotes: up to the first blank; only a comment may follow.
    func unquoted(_ text: ArraySlice<UInt8>, _ declaration: OptionDeclaration) throws(UsageError) -> [UInt8] {
        let value = text.prefix(while: { !Self.isBlank($0) })
        let after = text.dropFirst(value.count).drop(while: Self.isBlank)
        guard after.isEmpty || after.first == ASCII.hash else {
            throw error("the value for '--\(declaration.long)' holds whitespace; put it in double quotes (\"…\")")
        }
        return Array(value)
    }
}

/// The bytes of the config syntax that `ASCII` does not name.
private enum Byte {
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let tab: UInt8 = 0x09
    static let space: UInt8 = 0x20
    static let dash = UInt8(ascii: "-")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
}
