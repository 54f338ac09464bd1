import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Only regular files of ours are opened in the cache directory (README.md
/// "Token cache"): a FIFO, a socket or a symlink planted at an entry, a lock
/// or the salt is exit 2 naming it, before any request — never a hang (a
/// FIFO blocks a plain open(2) until a writer comes; the runner kills a
/// hung run and fails the test), never a file elsewhere.
@Suite("Cache files are regular files")
struct CacheFileSafetyTests {
    enum Place: String, CaseIterable, Sendable { case entry, lock, salt }

    /// A cache with one entry for the direct scenario, and the path of the
    /// place asked for. For the lock, the entry is removed first, so the run
    /// must take the lock to mint.
    static func prepared(_ fx: Fixture, _ cache: borrowing CacheDir, _ place: Place) async throws -> (path: String, what: String) {
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entry = try #require(cache.files(".token").first)
        switch place {
        case .entry: return (entry, "cache entry")
        case .lock:
            try FileManager.default.removeItem(atPath: entry)
            return (try #require(cache.files(".lock").first), "cache lock")
        case .salt: return (cache.path + "/cache-key.salt", "cache key salt")
        }
    }

    static func expectRefused(_ fx: Fixture, _ cache: borrowing CacheDir, path: String, message: String) async throws {
        let before = try fx.hits().count
        let result = try await run(fx.publicClient("direct") + cache.flags, timeout: 20)
        #expect(!result.timedOut, "a planted file must never make authcode wait")
        expectFailure(result, exit: 2, [message])
        #expect(result.stderr.contains("authcode makes its cache files itself; remove '\(path)'"), "\(result)")
        #expect(try fx.hits().count == before, "nothing sent")
    }

    @Test(arguments: Place.allCases)
    func fifoIsExit2NotAHang(place: Place) async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let (path, what) = try await Self.prepared(fx, cache, place)
        try? FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        try await Self.expectRefused(fx, cache, path: path, message: "the \(what) '\(path)' is a FIFO, not a regular file; refusing to use it")
    }

    /// A link is refused even when it points at a good copy of the file.
    @Test(arguments: Place.allCases)
    func symlinkIsExit2(place: Place) async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let (path, what) = try await Self.prepared(fx, cache, place)
        let elsewhere = cache.root + "/elsewhere"
        if FileManager.default.fileExists(atPath: path) {
            try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
        } else {
            #expect(FileManager.default.createFile(atPath: elsewhere, contents: nil, attributes: [.posixPermissions: 0o600]))
        }
        #expect(symlink(elsewhere, path) == 0)
        try await Self.expectRefused(fx, cache, path: path, message: "the \(what) '\(path)' is a symbolic link; refusing to follow it")
    }

    @Test(arguments: Place.allCases)
    func socketIsExit2(place: Place) async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let (path, what) = try await Self.prepared(fx, cache, place)
        try? FileManager.default.removeItem(atPath: path)
        let socket = try BoundSocket(at: path)
        defer { socket.close() }
        try await Self.expectRefused(fx, cache, path: path, message: "the \(what) '\(path)' is a socket, not a regular file; refusing to use it")
    }
}

/// A Unix-domain socket bound at `path`. sun_path holds at most 108 bytes,
/// less than a cache path, so it is bound at a short path and renamed.
struct BoundSocket {
    let descriptor: Int32

    init(at path: String) throws {
        let short = "/tmp/ac-\(UUID().uuidString.prefix(8)).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in short.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, rename(short, path) == 0 else {
            Glibc.close(descriptor)
            throw HarnessError("cannot make a socket at \(path): errno \(errno)")
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
