import Core
import HTTP
import OAuth
import Walk
import Flow

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `@FILE` and `@-` values, so secrets can stay out of `ps` and shell
/// history. Standard input can be read once only: a second `@-` is an error
/// rather than a silent empty value. A pipe or FIFO that stays silent is
/// given up after `timeout` seconds (exit 2), never waited on forever; a
/// terminal waits, since a person is typing.
package final class ValueReader {
    private let readStandardInput: (Double) throws(UsageError) -> [UInt8]
    private var standardInputUsedBy: String?
    /// `--timeout`, set by the validator before any value is read.
    var timeout = 30.0

    init() {
        readStandardInput = { timeout throws(UsageError) in try BoundedRead.all(descriptor: 0, timeout: timeout, what: "standard input") }
    }

    /// For tests: scripted standard input; nil reads as a failure.
    init(readStandardInput: @escaping () -> [UInt8]?) {
        self.readStandardInput = { _ throws(UsageError) in
            guard let bytes = readStandardInput() else { throw UsageError("") }
            return bytes
        }
    }

    /// The value itself, or the contents of the file it names with `@`,
    /// without one trailing newline (CRLF too). `@@x` is the literal `@x`.
    func resolve(_ value: String, for flag: String) throws(UsageError) -> String {
        if value.hasPrefix("@@") { return String(value.dropFirst()) }
        guard value.hasPrefix("@") else { return value }
        let path = String(value.dropFirst())
        let bytes: [UInt8]
        if path == "-" {
            if let earlier = standardInputUsedBy {
                throw UsageError("standard input is already read by '\(earlier)'; '\(flag)' cannot read '@-' too")
            }
            standardInputUsedBy = flag
            do {
                bytes = try readStandardInput(timeout)
            } catch {
                throw UsageError("cannot read standard input for '\(flag)'" + (error.message.isEmpty ? "" : ": \(error.message)"))
            }
        } else {
            if path.isEmpty {
                throw UsageError("'\(flag)' names an empty file path after '@'")
            }
            do {
                bytes = try BoundedRead.file(path, timeout: timeout)
            } catch {
                // `--form password=@~/pw.txt`: the shell expands `~` only at
                // the start of a word (issue 31 item 10).
                let tilde = path.hasPrefix("~/") || path == "~"
                throw UsageError("cannot read '\(path)' for '\(flag)': \(error.message)\(tilde ? " (the shell does not expand ~ there)" : "")",
                                 hint: tilde ? "Write it @\"$HOME/\(path.dropFirst(2))\": the shell expands ~ only at the start of a word." : UsageError.seeHelp)
            }
        }
        // One trailing LF or CRLF goes, on bytes: as a Character "\r\n" is a
        // single grapheme, and dropping two Characters would eat the secret's end.
        var content = bytes[...]
        if content.last == 0x0A {
            content = content.dropLast()
            if content.last == 0x0D { content = content.dropLast() }
        }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw UsageError("the value for '\(flag)' from '\(value)' is not UTF-8 text")
        }
        return text
    }
}
