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
    func writeErr(_ text: String)
    /// Where `writeOut` goes, for the message when it fails: `stdout`, or
    /// the file `-o` names.
    var outputName: String { get }
}

extension Console {
    package var outputName: String { "stdout" }
}

/// Writes straight to file descriptors 1 and 2 with write(2): unbuffered, so
/// the order of stdout and stderr lines is the order they were written.
/// It holds no state, so threads share it as it is.
package final class StandardConsole: Console {
    package init() {}

    @discardableResult package func writeOut(_ text: String) -> Bool { Self.write(text, to: 1) }
    package func writeErr(_ text: String) { Self.write(text, to: 2) }

    /// SIGPIPE is ignored (AuthCode.main), so a closed pipe is EPIPE here;
    /// a descriptor closed at start is held read-only (ProcessInput), EBADF.
    @discardableResult private static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
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
