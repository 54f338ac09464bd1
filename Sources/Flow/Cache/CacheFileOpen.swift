#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// The one way the cache opens an existing file (entry, lock, salt): only a
/// regular file of ours, never by following a link, never waiting. A FIFO
/// planted at a cache path would block a plain `open(2)` until some writer
/// came, with no time limit (open(2): O_NONBLOCK on a FIFO returns at once);
/// a symlink would send the token, or the lock, somewhere else. So:
/// `O_NOFOLLOW | O_NONBLOCK`, then `fstat` on what was opened (no window
/// between a check and the open), then O_NONBLOCK cleared for plain reads
/// and writes. Anything else is refused naming the path, before any request.
enum CacheFileOpen {
    /// Who else may touch the file.
    enum Privacy {
        /// Group and others may not write it (entries, locks).
        case notWritableByOthers
        /// Only the owner may read or write it (the salt keys every name).
        case ownerOnly
        /// A file the user named (a client certificate): any owner, and a
        /// link is followed — but it must still be a regular file.
        case userFile
        /// A secret the user named that authcode rewrites in place (a
        /// passkey file, Flow/Passkey/PasskeyFile.swift): never through a
        /// link, which the rewrite would replace; its mode is the caller's
        /// to judge.
        case rewrittenSecret
    }

    /// The open descriptor, or nil when there is no file and `flags` does
    /// not ask to create one.
    static func open(_ path: String, what: FileRole, flags: Int32, privacy: Privacy = .notWritableByOthers) throws(FileError) -> Int32? {
        let follow = privacy == .userFile ? 0 : O_NOFOLLOW
        let descriptor = Glibc.open(path, flags | follow | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT && flags & O_CREAT == 0 { return nil }
            switch error {
            case ELOOP:
                throw .symbolicLink(what, path: path)
            case ENXIO:  // a socket, or a FIFO with no reader when writing
                var info = stat()
                throw .notRegularFile(what, path: path, lstat(path, &info) == 0 ? kind(info.st_mode) : .socketOrFIFO)
            case EISDIR:
                throw .notRegularFile(what, path: path, .directory)
            default:
                throw .cannotOpen(what, path: path, reason: String(cString: strerror(error)))
            }
        }
        do throws(FileError) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                throw .cannotInspect(what, path: path, reason: String(cString: strerror(errno)))
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw .notRegularFile(what, path: path, kind(info.st_mode))
            }
            if privacy == .notWritableByOthers || privacy == .ownerOnly { try CacheDirectory.checkOwner(info, path: path, what: what) }
            if privacy == .ownerOnly, info.st_mode & 0o077 != 0 {
                throw .readableByOthers(what, path: path, mode: UInt32(info.st_mode & 0o777))
            }
            let status = fcntl(descriptor, F_GETFL)
            guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
                throw .cannotUse(what, path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The whole file, nil when it is longer than `limit` bytes.
    static func readAll(_ descriptor: Int32, path: String, what: FileRole, limit: Int) throws(FileError) -> [UInt8]? {
        do throws(InputError) {
            return try InputRead.all(descriptor, limit: limit)
        } catch .tooLarge {
            return nil
        } catch {
            throw .cannotRead(what, path: path, error)
        }
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFDIR: .directory
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFLNK: .symbolicLink
        default: .notAFile
        }
    }
}
