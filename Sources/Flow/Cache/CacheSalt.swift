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
        try create(path)
        guard let salt = try read(path) else {
            throw .saltVanished(path: path)
        }
        return salt
    }

    private static func read(_ path: String) throws(CacheError) -> [UInt8]? {
        guard let descriptor = try CacheFileOpen.open(path, what: .salt, flags: O_RDONLY, privacy: .ownerOnly) else { return nil }
        defer { close(descriptor) }
        let bytes = try CacheFileOpen.readAll(descriptor, path: path, what: .salt, limit: size)
        guard let bytes, bytes.count == size else {
            throw .saltWrongSize(path: path, size: size)
        }
        return bytes
    }

    /// Written whole to a temporary file, then linked into place: link(2)
    /// never replaces an existing name, so of two runs that start together
    /// one salt wins, and no run ever reads a half-written one.
    private static func create(_ path: String) throws(CacheError) {
        let temporary = "\(path).\(getpid()).\(Base64URL.encode(Randomness.bytes(6))).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw .cannotMakeSalt(path: path, reason: String(cString: strerror(errno)), temporary: true)
        }
        defer { unlink(temporary) }
        let salt = Randomness.bytes(size)
        let written = salt.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = written == size && fsync(descriptor) == 0
        close(descriptor)
        guard synced, link(temporary, path) == 0 || errno == EEXIST else {
            throw .cannotMakeSalt(path: path, reason: String(cString: strerror(errno)), temporary: false)
        }
    }
}
