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
        bounded = InputFile.mayStaySilent(descriptor)
    }

    mutating func read(into buffer: inout [UInt8], max: Int) throws(RecordInputError) -> Int {
        guard bounded else { return try plain.read(into: &buffer, max: max) }
        let deadline = SystemClock.monotonic() + timeout
        while true {
            guard InputRead.waitReadable(descriptor, until: deadline) else {
                throw .readFailed(.silent(seconds: timeout))
            }
            do throws(RecordInputError) {
                return try plain.read(into: &buffer, max: max)
            } catch {
                // A descriptor another process made non-blocking: the data
                // poll saw may be gone to another reader; wait again.
                if errno == EAGAIN { continue }
                throw error
            }
        }
    }
}
