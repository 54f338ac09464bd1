#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import JOSE

/// A fetched key set kept in the cache directory with its fetch time, so
/// runs within the hour need no request for it (OIDC Core §10.1.1 lets a
/// client cache keys; a `kid` it lacks makes the run fetch anew). Named by
/// the HMAC of its URL under the cache's salt, like every cache file
/// (CacheKeyBuilder.swift); written 0600 by temp file and rename, opened
/// only as a regular file of ours (CacheFileOpen.swift). On disk: a line
/// `authcode-jwks 1 <fetched-at> <length>`, then the public keys as JSON.
struct KeptKeySet: Sendable {
    static let magic = "authcode-jwks 1"
    /// A kept set is used for an hour after it was fetched.
    static let lifetime = 3600.0

    let path: String

    init(directory: CacheDirectory, url: String, salt: [UInt8]) {
        var key = CacheKeyBuilder()
        key.add("jwks-uri", [url])
        path = directory.file("jwks-" + key.key(salt: salt) + ".json")
    }

    struct Entry {
        var keys: JWKSet
        var fetchedAt: Double

        /// Fetched less than an hour ago, and not in the future (a clock
        /// set back does not keep a set for ever).
        func isFresh(now: Double) -> Bool {
            fetchedAt <= now + 60 && now - fetchedAt < KeptKeySet.lifetime
        }
    }

    /// The kept set; nil when there is none or it is not one this version
    /// wrote (it is fetched and replaced). A link, FIFO or foreign file at
    /// the path is refused, as for every cache file.
    func load() throws(FileError) -> Entry? {
        guard let descriptor = try CacheFileOpen.open(path, what: .keptKeySet, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        guard let bytes = try CacheFileOpen.readAll(descriptor, path: path, what: .keptKeySet, limit: 1 << 20),
              let newline = bytes.firstIndex(of: 0x0A), newline < 100 else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, "\(header[0]) \(header[1])" == Self.magic,
              let fetchedAt = Double(header[2]), fetchedAt.isFinite,
              let length = Int(header[3]), length == bytes.count - newline - 1,
              let keys = try? JWKSet(json: Array(bytes[(newline + 1)...])) else { return nil }
        return Entry(keys: keys, fetchedAt: fetchedAt)
    }

    func store(_ keys: JWKSet, fetchedAt: Double) throws(FileError) {
        let body = Array(keys.json.utf8)
        try CacheFiles.writeAtomically(Array("\(Self.magic) \(fetchedAt) \(body.count)\n".utf8) + body, to: path, what: .keptKeySet)
    }
}
