#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// Reads a whole small input (a secret, a body) from a file, pipe, FIFO or
/// terminal without ever hanging: a FIFO is opened without waiting for a
/// writer, and a pipe that yields nothing before the deadline is an error.
/// Errors carry only the reason; the caller names the flag and the path.
package enum BoundedRead {
    /// A value is short; an endless stream is refused rather than buffered.
    static let limit = 1 << 20

    static func file(_ path: String, timeout: Double) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
        // writer with no time limit.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure.usage(errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : "cannot open it")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            throw Failure.usage("it is a directory")
        }
        return try all(descriptor: descriptor, timeout: timeout, what: "it")
    }

    /// Everything up to end of file. Regular files and terminals are read
    /// as they are; anything else waits at most `timeout` seconds in all.
    static func all(descriptor: Int32, timeout: Double, what: String) throws(Failure) -> [UInt8] {
        var info = stat()
        let regular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        let bounded = !regular && isatty(descriptor) == 0
        let flags = fcntl(descriptor, F_GETFL)
        if bounded, flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        // Standard input's flags are shared with whoever else holds it.
        defer { if bounded, flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags) } }
        let deadline = SystemClock.monotonic() + timeout
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if bounded {
                let left = deadline - SystemClock.monotonic()
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = left > 0 ? poll(&entry, 1, Int32(min(left * 1000, 2_000_000_000).rounded(.up))) : 0
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 {
                    throw Failure.usage("\(what) yielded nothing to read within \(SystemClock.describe(seconds: timeout)) (--timeout); is a writer missing?")
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure.usage("read failed or larger than 1 MiB")
            }
            if count == 0 { return all }
            all.append(contentsOf: buffer[0..<count])
            if all.count > limit { throw Failure.usage("read failed or larger than 1 MiB") }
        }
    }
}
