import Core

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `-o FILE`: the result is written to a temporary file beside FILE, made
/// 0600 whatever the umask, and renamed over FILE only once it is whole and
/// on disk (fsync). A reader of FILE sees the old content or the new, never
/// half a token; a failed run leaves FILE as it was. The temporary file is
/// created before any request, so a directory that is missing or cannot be
/// written costs no login (exit 2).
final class OutputFile: Console {
    let path: String
    private let temporary: String
    private let base: Console
    /// The open temporary file (-1 once closed) and the errno of the first
    /// write that failed (later writes are skipped); the batch's writer and
    /// the main thread both reach it.
    private let file: Lock<(descriptor: Int32, writeError: Int32)>

    init(path: String, base: Console) throws(UsageError) {
        self.path = path
        self.base = base
        let (directory, name) = Self.split(path)
        func refuse(_ reason: String) -> UsageError {
            UsageError("cannot write '\(path)' for '-o': \(reason)")
        }
        guard !name.isEmpty, name != ".", name != ".." else { throw refuse("it names a directory, not a file") }
        var info = stat()
        if let refusal = Self.notReplaceable(path) { throw refuse(refusal) }
        guard stat(directory, &info) == 0 else {
            throw refuse(errno == ENOENT ? "directory '\(directory)' does not exist" : "cannot reach directory '\(directory)': \(Self.reason(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse("'\(directory)' is not a directory") }
        var template = ((directory == "/" ? "/" : directory + "/") + "." + name + ".authcode-XXXXXX").utf8CString
        let opened = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard opened >= 0 else { throw refuse("cannot create a file in '\(directory)': \(Self.reason(errno))") }
        file = Lock((descriptor: opened, writeError: 0))
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fcntl(opened, F_SETFD, FD_CLOEXEC)
        // mkstemp's mode is 0600 less the umask; exactly 0600 whatever it is.
        guard fchmod(opened, 0o600) == 0 else {
            let failed = errno
            discard()
            throw refuse("cannot set its mode to 0600: \(Self.reason(failed))")
        }
    }

    deinit { discard() }

    var outputName: String { "'\(path)'" }

    @discardableResult func writeOut(_ text: String) -> Bool {
        writeOut(bytes: Array(text.utf8))
    }

    @discardableResult func writeOut(bytes text: [UInt8]) -> Bool {
        file.withLock { file in
            guard file.writeError == 0, file.descriptor >= 0 else { return false }
            var bytes = text[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    file.writeError = errno
                    return false
                }
                bytes = bytes.dropFirst(written)
            }
            return true
        }
    }

    func writeErr(_ text: String) { base.writeErr(text) }

    /// Why the last write failed (`No space left on device`), for the exit-1 line.
    var failure: String { Self.reason(file.read { $0.writeError }) }

    /// Puts the file in place: flushed to disk, then renamed over `path`.
    /// On failure the temporary file is removed and `path` left as it was;
    /// the result is the reason.
    func commit() -> String? {
        let state = file.read { $0 }
        guard state.writeError == 0, state.descriptor >= 0 else { return failure }
        if fsync(state.descriptor) != 0 {
            let failed = errno
            discard()
            return Self.reason(failed)
        }
        file.withLock { file in
            close(file.descriptor)
            file.descriptor = -1
        }
        // Checked again: a link planted while the flow ran would be replaced too.
        if let refusal = Self.notReplaceable(path) {
            unlink(temporary)
            return refusal
        }
        guard rename(temporary, path) == 0 else {
            let failed = errno
            unlink(temporary)
            return Self.reason(failed)
        }
        return nil
    }

    /// Removes the temporary file, if it is still there.
    func discard() {
        let open = file.withLock { file in
            guard file.descriptor >= 0 else { return false }
            close(file.descriptor)
            file.descriptor = -1
            return true
        }
        if open { unlink(temporary) }
    }

    /// Why FILE may not be replaced, if it may not: rename(2) replaces
    /// whatever the name is, so a symbolic link (`/dev/stdout` is one) would
    /// itself become the token's file instead of being written through, and
    /// a device or FIFO likewise (README "Writing the result to a file"). Only a regular file, or
    /// no file yet, is ours to replace.
    static func notReplaceable(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory"
        case S_IFLNK: return "it is a symbolic link (-o replaces the file it names, so it would replace the link, not write through it)"
        default: return "it is not a regular file (-o replaces the file it names)"
        }
    }

    /// `dir/name` → (`dir`, `name`); a bare name is in `.`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
