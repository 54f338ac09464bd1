#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import OAuth

/// One cached answer: the token endpoint's body byte for byte and the time
/// it was received. On disk: a header line `authcode-cache 1 <received>
/// <length>` then the body, so a truncated or foreign file is recognised
/// (the length disagrees, the body is not a token answer) and replaced.
struct CacheEntry {
    var body: [UInt8]
    var receivedAt: Double

    static let magic = "authcode-cache 1"

    var token: TokenResponse? { TokenResponse(stored: body) }

    func encoded() -> [UInt8] {
        Array("\(Self.magic) \(receivedAt) \(body.count)\n".utf8) + body
    }

    /// Nil for anything that is not a whole entry this version wrote.
    static func decode(_ bytes: [UInt8]) -> CacheEntry? {
        guard let newline = bytes.firstIndex(of: 0x0A), newline < 100 else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, "\(header[0]) \(header[1])" == magic,
              let received = Double(header[2]), received.isFinite, received > 0,
              let length = Int(header[3]), length == bytes.count - newline - 1 else { return nil }
        let entry = CacheEntry(body: Array(bytes[(newline + 1)...]), receivedAt: received)
        return entry.token == nil ? nil : entry
    }

    /// The entry file's bytes; nil when there is none. Unreadable is an
    /// error: a cache the user pointed at must not be silently skipped.
    /// Only a regular file of ours is read (CacheFileOpen.swift).
    static func load(from path: String) throws(FileError) -> [UInt8]? {
        guard let descriptor = try CacheFileOpen.open(path, what: .cacheEntry, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        // Longer than any token answer: not ours, treated as corrupt.
        return try CacheFileOpen.readAll(descriptor, path: path, what: .cacheEntry, limit: 4 << 20) ?? []
    }

    /// Written by temporary file and rename (CacheFiles.writeAtomically): a reader
    /// sees the old entry or the new one, never half of one.
    func store(at path: String) throws(FileError) {
        try CacheFiles.writeAtomically(encoded(), to: path, what: .cacheEntry)
    }
}
