#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import OAuth

/// One cached answer: the token endpoint's body byte for byte, the time it
/// was received, and the DPoP nonces resource servers gave for it, by
/// origin (RFC 9449 §9; `--call` starts the next run with them). On disk: a
/// header line `authcode-cache 1 <received> <length>[ <nonces length>]`,
/// the body, then one `<origin> <nonce>` line per nonce — so a truncated or
/// foreign file is recognised (a length disagrees, the body is not a token
/// answer) and replaced.
struct CacheEntry {
    var body: [UInt8]
    var receivedAt: Double
    var nonces: [String: String] = [:]

    static let magic = "authcode-cache 1"

    var token: TokenResponse? { TokenResponse(stored: body) }

    func encoded() -> [UInt8] {
        // Sorted: the same entry is the same bytes.
        let lines = nonces.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        let trailer = lines.isEmpty ? "" : " \(lines.utf8.count)"
        return Array("\(Self.magic) \(receivedAt) \(body.count)\(trailer)\n".utf8) + body + Array(lines.utf8)
    }

    /// Nil for anything that is not a whole entry this version wrote.
    static func decode(_ bytes: [UInt8]) -> CacheEntry? {
        guard let newline = bytes.firstIndex(of: 0x0A), newline < 100 else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4 || header.count == 5, "\(header[0]) \(header[1])" == magic,
              let received = Double(header[2]), received.isFinite, received > 0,
              let length = Int(header[3]), length >= 0 else { return nil }
        let trailerLength = header.count == 5 ? Int(header[4]) : 0
        guard let trailerLength, trailerLength >= 0, length <= bytes.count - newline - 1,
              trailerLength == bytes.count - newline - 1 - length else { return nil }
        let bodyStart = newline + 1
        var entry = CacheEntry(body: Array(bytes[bodyStart..<(bodyStart + length)]), receivedAt: received)
        for line in bytes[(bodyStart + length)...].split(separator: 0x0A) {
            let parts = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard parts.count == 2 else { return nil }
            entry.nonces[String(parts[0])] = String(parts[1])
        }
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
