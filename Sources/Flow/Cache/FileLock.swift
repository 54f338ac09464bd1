#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// An exclusive flock(2) on a separate lock file, never on the entry itself:
/// the entry is replaced by rename, and a lock on a file that is renamed
/// away locks nothing. The lock file stays, so no run unlinks a lock another
/// holds. Released when the descriptor closes, also if the process dies.
final class FileLock {
    private let descriptor: Int32

    /// Waits at most `timeout` seconds (refused after that, never a hang).
    /// `what` names the lock: the cache's, or a passkey file's.
    init(path: String, timeout: Double, what: FileRole = .cacheLock) throws(FileError) {
        // A FIFO, socket or link planted here is refused, never a hang (CacheFileOpen.swift).
        guard let descriptor = try CacheFileOpen.open(path, what: what, flags: O_RDWR | O_CREAT) else {
            throw .cannotOpenLock(what, path: path)
        }
        let deadline = SystemClock.monotonic() + timeout
        var pause: UInt32 = 2_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(descriptor)
                throw .cannotLock(path: path, reason: String(cString: strerror(errno)))
            }
            guard SystemClock.monotonic() < deadline else {
                close(descriptor)
                throw .lockTimeout(what, seconds: timeout, path: path)
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
