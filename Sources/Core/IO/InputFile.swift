#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a path the user named as input, which may be a FIFO: open(2)
/// of a FIFO for reading waits for a writer with no time limit, so it is
/// opened with O_NONBLOCK, checked with fstat (a directory is refused),
/// and O_NONBLOCK is cleared again so reads behave as for any file (a
/// terminal blocks while a person types; a pipe's wait is bounded by
/// `InputRead.waitReadable`). The one place this order is written.
package enum InputFile {
    /// The open descriptor (close-on-exec); the caller closes it.
    package static func open(_ path: String) throws(InputError) -> Int32 {
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fromErrno() }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = InputError.fromErrno()
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw .directory
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// Closes a descriptor this opened.
    package static func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    /// Whether a read of `descriptor` can wait forever: anything but a
    /// regular file or a terminal (a pipe, FIFO or socket may stay silent).
    package static func mayStaySilent(_ descriptor: Int32) -> Bool {
        !isRegularFile(descriptor) && isatty(descriptor) == 0
    }

    package static func isRegularFile(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

// The C functions, not this type's methods of the same names.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
