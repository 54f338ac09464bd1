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
    static func of(_ path: String?, option: ClientFile) throws(CacheError) -> String {
        guard let path else { return "" }
        // Only a regular file can be read twice (here, then by libcurl),
        // and a FIFO must not make us wait (CacheFileOpen.swift).
        let opened: Int32?
        do throws(FileError) {
            opened = try CacheFileOpen.open(path, what: .clientFile(option), flags: O_RDONLY, privacy: .userFile)
        } catch {
            throw .clientFileNotRegular(option, error)
        }
        guard let descriptor = opened else {
            throw .clientFileMissing(option, path: path)
        }
        defer { close(descriptor) }
        let read: [UInt8]?
        do {
            read = try CacheFileOpen.readAll(descriptor, path: path, what: .clientFile(option), limit: limit)
        } catch {
            throw .file(error)
        }
        guard let bytes = read else {
            throw .clientFileTooLarge(option, path: path, limitMiB: limit >> 20)
        }
        return CacheKeyBuilder.hex(SHA256.hash(bytes))
    }
}
