#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// File operations of the cache that are not an entry's own.
enum CacheFiles {
    /// Unlinks a file; one that is already gone is fine.
    static func remove(_ path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Failure(.usage, "cannot remove the cache entry '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}
