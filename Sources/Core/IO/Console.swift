#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a run writes: stdout for the result only, stderr for everything
/// else. Tests pass a `CapturingConsole` to assert both exactly. Sendable:
/// the flows of a batch write to one console from their threads.
package protocol Console: AnyObject, Sendable {
    /// False when stdout could not take it all (a closed pipe, a full
    /// disk): the caller must say so, and exit 1.
    @discardableResult func writeOut(_ text: String) -> Bool
    /// Bytes as they are (`--call`'s body, which need not be text).
    @discardableResult func writeOut(bytes: [UInt8]) -> Bool
    func writeErr(_ text: String)
    /// Where `writeOut` goes, for the message when it fails: `stdout`, or
    /// the file `-o` names.
    var outputName: String { get }
}

extension Console {
    package var outputName: String { "stdout" }

    /// A console that holds text keeps what is not UTF-8 as U+FFFD.
    @discardableResult package func writeOut(bytes: [UInt8]) -> Bool {
        writeOut(String(decoding: bytes, as: UTF8.self))
    }
}

/// Writes straight to file descriptors 1 and 2 with write(2): unbuffered, so
/// the order of stdout and stderr lines is the order they were written.
/// It holds no state, so threads share it as it is.
package final class StandardConsole: Console {
    package init() {}

    @discardableResult package func writeOut(_ text: String) -> Bool { Self.write(Array(text.utf8), to: 1) }
    @discardableResult package func writeOut(bytes: [UInt8]) -> Bool { Self.write(bytes, to: 1) }
    package func writeErr(_ text: String) { Self.write(Array(text.utf8), to: 2) }

    /// SIGPIPE is ignored (AuthCode.main), so a closed pipe is EPIPE here;
    /// a descriptor closed at start is held read-only (ProcessInput), EBADF.
    @discardableResult private static func write(_ text: [UInt8], to descriptor: Int32) -> Bool {
        var bytes = text[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
