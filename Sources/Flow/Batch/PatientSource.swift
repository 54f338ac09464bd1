#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// The `--users` input read from a pipe, FIFO or socket that may stay
/// silent (a CI step that never closes stdin, a FIFO nobody writes): each
/// read waits at most `timeout` seconds for data, then fails, so a batch
/// never hangs. A slow producer is fine as long as it produces something
/// within each `timeout`. Regular files and terminals are read as they are.
struct PatientSource: ByteSource {
    let descriptor: Int32
    let timeout: Double
    private var plain: FileDescriptorSource
    private let bounded: Bool

    init(descriptor: Int32, timeout: Double) {
        self.descriptor = descriptor
        self.timeout = timeout
        plain = FileDescriptorSource(descriptor: descriptor)
        var info = stat()
        let regular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        bounded = !regular && isatty(descriptor) == 0
    }

    mutating func read(into buffer: inout [UInt8], max: Int) throws(RecordInputError) -> Int {
        guard bounded else { return try plain.read(into: &buffer, max: max) }
        let deadline = SystemClock.monotonic() + timeout
        while true {
            let left = deadline - SystemClock.monotonic()
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = left > 0 ? poll(&entry, 1, Int32(min(left * 1000, 2_000_000_000).rounded(.up))) : 0
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                throw .readFailed("nothing arrived within \(SystemClock.describe(seconds: timeout)) (--timeout); is a writer missing?")
            }
            do throws(RecordInputError) {
                return try plain.read(into: &buffer, max: max)
            } catch {
                // Non-blocking: data may have been taken by nobody else but
                // be not quite there yet; wait again until the deadline.
                if errno == EAGAIN { continue }
                throw error
            }
        }
    }
}
