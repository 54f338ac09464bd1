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
        // Only a regular file can be read twice (here, then by libcurl),
        // and a FIFO must not make us wait (CacheFileOpen.swift).
        let opened: Int32?
        do throws(Failure) {
            opened = try CacheFileOpen.open(path, what: "\(option) file", flags: O_RDONLY, privacy: .userFile)
        } catch {
            throw Failure(.usage, "with --cache, '\(option)' must name a regular file: its content keys the cache (\(error.message))")
        }
        guard let descriptor = opened else {
            throw Failure(.usage, "cannot read '\(path)' for '\(option)': no such file")
        }
        defer { close(descriptor) }
        guard let bytes = try CacheFileOpen.readAll(descriptor, path: path, what: "\(option) file", limit: limit) else {
            throw Failure(.usage, "'\(path)' for '\(option)' is larger than \(limit >> 20) MiB")
        }
        return CacheKeyBuilder.hex(SHA256.hash(bytes))
    }
}
