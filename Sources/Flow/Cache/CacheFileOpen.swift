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
/// and writes. Anything else is exit 2 naming the path, before any request.
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
    static func open(_ path: String, what: String, flags: Int32, privacy: Privacy = .notWritableByOthers) throws(Failure) -> Int32? {
        let follow = privacy == .userFile ? 0 : O_NOFOLLOW
        let descriptor = Glibc.open(path, flags | follow | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT && flags & O_CREAT == 0 { return nil }
            switch error {
            case ELOOP:
                throw Failure(.usage, "the \(what) '\(path)' is a symbolic link; refusing to follow it", hint: hint(path, privacy))
            case ENXIO:  // a socket, or a FIFO with no reader when writing
                var info = stat()
                let found = lstat(path, &info) == 0 ? kind(info.st_mode) : "a socket or a FIFO"
                throw Failure(.usage, "the \(what) '\(path)' is \(found), not a regular file; refusing to use it", hint: hint(path, privacy))
            case EISDIR:
                throw Failure(.usage, "the \(what) '\(path)' is a directory, not a regular file; refusing to use it", hint: hint(path, privacy))
            default:
                throw Failure(.usage, "cannot open the \(what) '\(path)': \(String(cString: strerror(error)))")
            }
        }
        do throws(Failure) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                throw Failure(.usage, "cannot inspect the \(what) '\(path)': \(String(cString: strerror(errno)))")
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw Failure(.usage, "the \(what) '\(path)' is \(kind(info.st_mode)), not a regular file; refusing to use it", hint: hint(path, privacy))
            }
            if privacy == .notWritableByOthers || privacy == .ownerOnly { try CacheDirectory.checkOwner(info, path: path, what: what) }
            if privacy == .ownerOnly, info.st_mode & 0o077 != 0 {
                throw Failure(.usage, "the \(what) '\(path)' can be read or written by group or others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                              hint: "It keys every cache file name: remove it (every token is then minted anew), or chmod 600 '\(path)'.")
            }
            let status = fcntl(descriptor, F_GETFL)
            guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
                throw Failure(.usage, "cannot use the \(what) '\(path)': \(String(cString: strerror(errno)))")
            }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The whole file, nil when it is longer than `limit` bytes.
    static func readAll(_ descriptor: Int32, path: String, what: String, limit: Int) throws(Failure) -> [UInt8]? {
        do throws(InputError) {
            return try InputRead.all(descriptor, limit: limit)
        } catch .tooLarge {
            return nil
        } catch {
            throw Failure(.usage, "cannot read the \(what) '\(path)': \(error)")
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }

    private static func hint(_ path: String, _ privacy: Privacy) -> String {
        guard privacy != .rewrittenSecret else {
            return "authcode rewrites '\(path)' after each use, so it must be a regular file: give the file's own path, not a link."
        }
        return "authcode makes its cache files itself; remove '\(path)' (or pass --cache-dir with a directory of your own, mode 0700)."
    }
}
