#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a whole input (a `@FILE` value, the `--users` file, a cache entry)
/// could not be opened or read; the caller names the flag and the path, and
/// the CLI words it.
package enum InputError: Error, Equatable, Sendable {
    case notFound
    case permissionDenied
    case directory
    /// A pipe or FIFO that yielded nothing before the deadline.
    case silent(seconds: Double)
    /// More than the caller's limit: an endless stream, or not ours.
    case tooLarge
    /// Any other errno, as strerror(3) words it.
    case system(String)

    /// The error of the last failed call, from `errno`.
    package static func fromErrno() -> InputError {
        switch errno {
        case ENOENT: .notFound
        case EACCES: .permissionDenied
        case EISDIR: .directory
        case let code: .system(String(cString: strerror(code)))
        }
    }
}
