#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a run writes: stdout for the result only, stderr for everything
/// else. Tests pass a `CapturingConsole` to assert both exactly.
package protocol Console: AnyObject {
    func writeOut(_ text: String)
    func writeErr(_ text: String)
    /// Writes the result to stdout and says whether all of it got there: a
    /// closed pipe or a full disk after a code was redeemed must be said
    /// (exit 1), since the tokens bought with it are lost.
    func deliver(_ text: String) -> Bool
}

extension Console {
    package func deliver(_ text: String) -> Bool {
        writeOut(text)
        return true
    }
}

/// Writes straight to file descriptors 1 and 2 with write(2): unbuffered, so
/// the order of stdout and stderr lines is the order they were written.
package final class StandardConsole: Console {
    package init() {}

    package func writeOut(_ text: String) { Self.write(text, to: 1) }
    package func writeErr(_ text: String) { Self.write(text, to: 2) }
    package func deliver(_ text: String) -> Bool { Self.write(text, to: 1) }

    /// False when a byte could not be written: EPIPE once SIGPIPE is
    /// ignored (`AuthCode.runProcess`), ENOSPC, EBADF for a closed descriptor.
    @discardableResult
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
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
                return false // a closed pipe (| head), a full disk
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
