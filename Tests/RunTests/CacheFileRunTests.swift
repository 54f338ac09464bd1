import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// Only regular files of ours are opened in the cache directory (README.md
/// "Token cache"): a FIFO, a socket or a symlink planted at an entry, a lock
/// or the salt is exit 2 naming it, before any request — never a hang (a
/// FIFO blocks a plain open(2) until a writer comes), never a file
/// elsewhere; and a shared directory is refused with a hint that never
/// changes it. Moved from EndToEndTests/CacheFileSafetyTests and
/// HintDirectionTests.
struct CacheFileRunTests {
    enum Place: String, CaseIterable, Sendable { case entry, lock, salt }

    /// A cache with one entry, and the path of the place asked for. For the
    /// lock, the entry is removed first, so the run must take the lock to mint.
    static func prepared(_ server: ScriptedServer, _ cache: borrowing CacheDir, _ place: Place) throws -> (path: String, what: String) {
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let entry = try #require(cache.files(".token").first)
        switch place {
        case .entry: return (entry, "cache entry")
        case .lock:
            try FileManager.default.removeItem(atPath: entry)
            return (try #require(cache.files(".lock").first), "cache lock")
        case .salt: return (cache.path + "/cache-key.salt", "cache key salt")
        }
    }

    static func expectRefused(_ server: ScriptedServer, _ cache: borrowing CacheDir, path: String, message: String) {
        let before = server.requests.count
        let ran = authcode(server.publicClient() + cache.flags, server: server)
        expectFailure(ran, .usage, "authcode: error: \(message)\nauthcode makes its cache files itself; remove '\(path)' (or pass --cache-dir with a directory of your own, mode 0700).\n")
        #expect(server.requests.count == before, "nothing sent")
    }

    @Test(arguments: Place.allCases)
    func fifoIsExit2NotAHang(place: Place) throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        let (path, what) = try Self.prepared(server, cache, place)
        try? FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        Self.expectRefused(server, cache, path: path, message: "the \(what) '\(path)' is a FIFO, not a regular file; refusing to use it")
    }

    /// A link is refused even when it points at a good copy of the file.
    @Test(arguments: Place.allCases)
    func symlinkIsExit2(place: Place) throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        let (path, what) = try Self.prepared(server, cache, place)
        let elsewhere = cache.root + "/elsewhere"
        if FileManager.default.fileExists(atPath: path) {
            try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
        } else {
            #expect(FileManager.default.createFile(atPath: elsewhere, contents: nil, attributes: [.posixPermissions: 0o600]))
        }
        #expect(symlink(elsewhere, path) == 0)
        Self.expectRefused(server, cache, path: path, message: "the \(what) '\(path)' is a symbolic link; refusing to follow it")
    }

    @Test(arguments: Place.allCases)
    func socketIsExit2(place: Place) throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        let (path, what) = try Self.prepared(server, cache, place)
        try? FileManager.default.removeItem(atPath: path)
        let socket = try BoundSocket(at: path)
        defer { socket.close() }
        Self.expectRefused(server, cache, path: path, message: "the \(what) '\(path)' is a socket, not a regular file; refusing to use it")
    }

    /// Issue 22 item 4: a shared sticky directory is never `chmod`ed.
    @Test(arguments: [(0o1777, true), (0o777, false)])
    func cacheDirHintNeverChangesASharedDirectory(_ mode: Int, _ sticky: Bool) throws {
        let server = ScriptedServer()
        let root = NSTemporaryDirectory() + "authcode-shared-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(chmod(root, mode_t(mode)) == 0)
        let ran = authcode(server.publicClient() + ["--cache", "--cache-dir", root], server: server)
        let hint = sticky ? "Pass --cache-dir with a private directory instead, e.g. --cache-dir \"$HOME/.cache/authcode\"."
            : "chmod go-w '\(root)', or pass --cache-dir with a directory of mode 0700."
        expectFailure(ran, .usage, "authcode: error: the cache directory '\(root)' can be written by group or others (mode \(String(mode, radix: 8)));"
                      + " refusing to keep tokens there\n\(hint)\n")
        #expect(ran.requests.isEmpty)
    }
}

/// A Unix-domain socket bound at `path`. sun_path holds at most 108 bytes,
/// less than a cache path, so it is bound at a short path and renamed.
struct BoundSocket {
    let descriptor: Int32

    init(at path: String) throws {
        let short = "/tmp/ac-\(UUID().uuidString.prefix(8)).sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
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
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
