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
/// rather than a silent empty value.
package final class ValueReader {
    private let readStandardInput: () -> [UInt8]?
    private var standardInputUsedBy: String?

    init(readStandardInput: @escaping () -> [UInt8]? = ValueReader.readAllStandardInput) {
        self.readStandardInput = readStandardInput
    }

    /// The value itself, or the contents of the file it names with `@`,
    /// without one trailing newline (CRLF too).
    func resolve(_ value: String, for flag: String) throws(Failure) -> String {
        guard value.hasPrefix("@") else { return value }
        let path = String(value.dropFirst())
        let bytes: [UInt8]
        if path == "-" {
            if let earlier = standardInputUsedBy {
                throw Failure.usage("standard input is already read by '\(earlier)'; '\(flag)' cannot read '@-' too")
            }
            standardInputUsedBy = flag
            guard let input = readStandardInput() else {
                throw Failure.usage("cannot read standard input for '\(flag)'")
            }
            bytes = input
        } else {
            if path.isEmpty {
                throw Failure.usage("'\(flag)' names an empty file path after '@'")
            }
            bytes = try Self.readFile(path, for: flag)
        }
        // One trailing LF or CRLF goes, on bytes: as a Character "\r\n" is a
        // single grapheme, and dropping two Characters would eat the secret's end.
        var content = bytes[...]
        if content.last == 0x0A {
            content = content.dropLast()
            if content.last == 0x0D { content = content.dropLast() }
        }
        guard let text = String(validating: content, as: UTF8.self) else {
            throw Failure.usage("the value for '\(flag)' from '\(value)' is not UTF-8 text")
        }
        return text
    }

    /// POSIX reads: FoundationEssentials has no FileHandle, and a directory
    /// must give a clear error, not a crash.
    static func readFile(_ path: String, for flag: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : "cannot open it"
            throw Failure.usage("cannot read '\(path)' for '\(flag)': \(reason)")
        }
        defer { close(descriptor) }
        // Pipes count: `--client-secret @<(pass show ci/secret)` is the point.
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            throw Failure.usage("cannot read '\(path)' for '\(flag)': it is a directory")
        }
        guard let bytes = readAll(descriptor) else {
            throw Failure.usage("cannot read '\(path)' for '\(flag)': read failed or larger than 1 MiB")
        }
        return bytes
    }

    static func readAllStandardInput() -> [UInt8]? {
        readAll(0)
    }

    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return all }
            all.append(contentsOf: buffer[0..<count])
            // A value is short; refuse to buffer an endless stream.
            if all.count > 1 << 20 { return nil }
        }
    }
}
