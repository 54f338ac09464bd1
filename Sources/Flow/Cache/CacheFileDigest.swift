#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// A file that chooses the token by what it holds — a client certificate
/// or its key — keys the cache by its content's SHA-256, never by its
/// path: a renewed certificate at the same path is another client identity.
enum CacheFileDigest {
    static let limit = 1 << 20

    /// "" when no file is given.
    static func of(_ path: String?, option: String) throws(Failure) -> String {
        guard let path else { return "" }
        // O_NONBLOCK: a FIFO here would otherwise wait for a writer forever;
        // only a regular file can be read twice (here, then by libcurl).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw Failure(.usage, "cannot read '\(path)' for '\(option)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(.usage, "with --cache, '\(option)' must name a regular file: its content keys the cache, and '\(path)' is not one")
        }
        guard let bytes = try CacheFileOpen.readAll(descriptor, path: path, what: "\(option) file", limit: limit) else {
            throw Failure(.usage, "'\(path)' for '\(option)' is larger than \(limit >> 20) MiB")
        }
        return CacheKeyBuilder.hex(SHA256.hash(bytes))
    }
}
