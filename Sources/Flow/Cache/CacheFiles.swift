#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// File operations of the cache that are not an entry's own.
enum CacheFiles {
    /// Unlinks a file; one that is already gone is fine. Whether there was one.
    @discardableResult
    static func remove(_ path: String) throws(FileError) -> Bool {
        if unlink(path) == 0 { return true }
        guard errno == ENOENT else {
            throw .cannotRemove(path: path, reason: String(cString: strerror(errno)))
        }
        return false
    }

    /// A new file at `path`, never replacing one: written whole to a
    /// temporary file (0600) beside it, then linked into place — link(2)
    /// fails on an existing name, so of two runs that start together one
    /// file wins, and no run ever reads a half-written one. False when
    /// `path` exists already.
    static func createNew(_ contents: [UInt8], at path: String, what: FileRole) throws(FileError) -> Bool {
        let temporary = "\(path).\(getpid()).\(Base64URL.encode(Randomness.bytes(6))).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw .cannotMake(what, path: path, reason: String(cString: strerror(errno)), temporary: true)
        }
        defer { unlink(temporary) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = written == contents.count && fsync(descriptor) == 0
        close(descriptor)
        guard synced else {
            throw .cannotMake(what, path: path, reason: String(cString: strerror(errno)), temporary: false)
        }
        if link(temporary, path) == 0 { return true }
        guard errno == EEXIST else {
            throw .cannotMake(what, path: path, reason: String(cString: strerror(errno)), temporary: false)
        }
        return false
    }

    /// Written to a temporary file (0600, never through a link) in the same
    /// directory, flushed, then renamed over `path`: a reader sees the old
    /// file or the new one, and a run killed mid-write leaves no half file.
    static func writeAtomically(_ contents: [UInt8], to path: String, what: FileRole) throws(FileError) {
        let temporary = "\(path).\(getpid()).\(Base64URL.encode(Randomness.bytes(6))).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw .cannotWrite(what, path: path, reason: String(cString: strerror(errno)), temporary: true)
        }
        var bytes = contents[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw .cannotWrite(what, path: path, reason: reason, temporary: false)
            }
            bytes = bytes.dropFirst(written)
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(what, path: path, reason: reason, temporary: false)
        }
    }
}
