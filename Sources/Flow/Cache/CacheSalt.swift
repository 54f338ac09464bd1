#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import OAuth

/// The cache's secret: 32 random bytes that key every entry's name
/// (CacheKey.swift), so a file name reveals nothing about the issuer, the
/// client or the user without it. Made on first use, mode 0600, and only a
/// regular file of ours that nobody else can read is used (CacheFileOpen.swift).
enum CacheSalt {
    static let fileName = "cache-key.salt"
    static let size = 32

    static func load(in directory: CacheDirectory) throws(Failure) -> [UInt8] {
        let path = directory.file(fileName)
        if let salt = try read(path) { return salt }
        try create(path)
        guard let salt = try read(path) else {
            throw Failure(.usage, "the cache key salt '\(path)' vanished as it was made")
        }
        return salt
    }

    private static func read(_ path: String) throws(Failure) -> [UInt8]? {
        guard let descriptor = try CacheFileOpen.open(path, what: "cache key salt", flags: O_RDONLY, privacy: .ownerOnly) else { return nil }
        defer { close(descriptor) }
        let bytes = try CacheFileOpen.readAll(descriptor, path: path, what: "cache key salt", limit: size)
        guard let bytes, bytes.count == size else {
            throw Failure(.usage, "the cache key salt '\(path)' is not \(size) bytes",
                          hint: "Remove it: a new one is made, and every token is then minted anew.")
        }
        return bytes
    }

    /// Made once, never replaced (CacheFiles.createNew): of two runs that
    /// start together one salt wins, and no run reads a half-written one.
    private static func create(_ path: String) throws(Failure) {
        _ = try CacheFiles.createNew(Randomness.bytes(size), at: path, what: "cache key salt")
    }
}
