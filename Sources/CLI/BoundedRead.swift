import Core

/// Reads a whole small input (a secret, a body) from a file, pipe, FIFO or
/// terminal without ever hanging: a FIFO is opened without waiting for a
/// writer, and a pipe that yields nothing before the deadline is an error
/// (Core/IO/InputFile.swift, Core/IO/InputRead.swift). Errors carry only the
/// reason; the caller names the flag and the path.
package enum BoundedRead {
    /// A value is short; an endless stream is refused rather than buffered.
    static let limit = 1 << 20

    static func file(_ path: String, timeout: Double) throws(UsageError) -> [UInt8] {
        let descriptor: Int32
        do throws(InputError) {
            descriptor = try InputFile.open(path)
        } catch {
            throw UsageError(error.text)
        }
        defer { InputFile.close(descriptor) }
        return try all(descriptor: descriptor, timeout: timeout, what: "it")
    }

    /// Everything up to end of file. Regular files and terminals are read
    /// as they are; anything else waits at most `timeout` seconds in all.
    static func all(descriptor: Int32, timeout: Double, what: String) throws(UsageError) -> [UInt8] {
        do throws(InputError) {
            return try InputRead.all(descriptor, limit: limit, timeout: timeout)
        } catch .silent {
            throw UsageError("\(what) yielded nothing to read within \(SystemClock.describe(seconds: timeout)) (--timeout); is a writer missing?")
        } catch {
            throw UsageError("read failed or larger than 1 MiB")
        }
    }
}
