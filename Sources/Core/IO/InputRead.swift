#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading from a descriptor that may stay silent, without hanging, and
/// reading one to its end: the loops every whole-input reader needs
/// (`@FILE` values, the `--users` stream, a cache entry), written once.
package enum InputRead {
    /// Waits until `descriptor` has something to read (or its end) or the
    /// monotonic `deadline` passes (SystemClock.monotonic); false when the
    /// time ran out first.
    package static func waitReadable(_ descriptor: Int32, until deadline: Double) -> Bool {
        while true {
            let left = deadline - SystemClock.monotonic()
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000, 2_000_000_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // the read reports the error
        }
    }

    /// Everything up to end of file, at most `limit` bytes (more is
    /// `.tooLarge`). With `timeout`, a descriptor that may stay silent
    /// (`InputFile.mayStaySilent`) must yield all of it within that many
    /// seconds; it is made non-blocking meanwhile and its flags restored
    /// after (standard input's are shared with whoever else holds it).
    package static func all(_ descriptor: Int32, limit: Int, timeout: Double? = nil) throws(InputError) -> [UInt8] {
        let bounded = timeout != nil && InputFile.mayStaySilent(descriptor)
        let flags = fcntl(descriptor, F_GETFL)
        if bounded, flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        defer { if bounded, flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags) } }
        let deadline = SystemClock.monotonic() + (timeout ?? 0)
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if bounded, !waitReadable(descriptor, until: deadline) {
                throw .silent(seconds: timeout ?? 0)
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || (bounded && errno == EAGAIN) { continue }
                throw .fromErrno()
            }
            if count == 0 { return all }
            all.append(contentsOf: buffer[0..<count])
            if all.count > limit { throw .tooLarge }
        }
    }
}
