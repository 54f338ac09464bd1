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
    static func load(from path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(.usage, "cannot read the cache entry '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        do throws(InputError) {
            return try InputRead.all(descriptor, limit: 4 << 20)
        } catch .tooLarge {
            return []  // not ours: treated as corrupt
        } catch {
            throw Failure(.usage, "cannot read the cache entry '\(path)': \(error)")
        }
    }

    /// Written to a temporary file (0600) in the same directory, flushed,
    /// then renamed over the entry: a reader sees the old entry or the new
    /// one, and a run killed mid-write leaves no half entry.
    func store(at path: String) throws(Failure) {
        let temporary = "\(path).\(getpid()).\(Base64URL.encode(Randomness.bytes(6))).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw Failure(.usage, "cannot write the cache entry in '\(path)': \(String(cString: strerror(errno)))")
        }
        var bytes = encoded()[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw Failure(.usage, "cannot write the cache entry '\(path)': \(reason)")
            }
            bytes = bytes.dropFirst(written)
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(.usage, "cannot write the cache entry '\(path)': \(reason)")
        }
    }
}
