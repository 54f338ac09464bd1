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

    static func load(in directory: CacheDirectory) throws(CacheError) -> [UInt8] {
        let path = directory.file(fileName)
        if let salt = try read(path) { return salt }
        do {
            try create(path)
        } catch {
            throw .file(error)
        }
        guard let salt = try read(path) else {
            throw .saltVanished(path: path)
        }
        return salt
    }

    private static func read(_ path: String) throws(CacheError) -> [UInt8]? {
        let bytes: [UInt8]?
        do throws(FileError) {
            guard let descriptor = try CacheFileOpen.open(path, what: .cacheSalt, flags: O_RDONLY, privacy: .ownerOnly) else { return nil }
            defer { close(descriptor) }
            bytes = try CacheFileOpen.readAll(descriptor, path: path, what: .cacheSalt, limit: size)
        } catch {
            throw .file(error)
        }
        guard let bytes, bytes.count == size else {
            throw .saltWrongSize(path: path, size: size)
        }
        return bytes
    }

    /// Made once, never replaced (CacheFiles.createNew): of two runs that
    /// start together one salt wins, and no run reads a half-written one.
    private static func create(_ path: String) throws(FileError) {
        _ = try CacheFiles.createNew(Randomness.bytes(size), at: path, what: .cacheSalt)
    }
}
