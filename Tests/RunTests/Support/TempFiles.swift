import Foundation

/// A fresh cache directory for one test; `path` below `root` is left for
/// authcode to create (mode 0700).
struct CacheDir: ~Copyable {
    let root: String
    let path: String

    init() {
        root = NSTemporaryDirectory() + "authcode-cache-\(UUID().uuidString.prefix(8))"
        path = root + "/nested/authcode"
    }

    var flags: [String] { ["--cache", "--cache-dir", path] }

    /// The files in it, by suffix (`.token`, `.lock`).
    func files(_ suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(suffix) }.map { path + "/" + $0 }.sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// A directory for one test, removed with everything in it when done.
struct TempDir: ~Copyable {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "authcode-run-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    @discardableResult
    func file(_ name: String, _ contents: String = "", mode: Int = 0o600) throws -> String {
        let full = path + "/" + name
        try contents.write(toFile: full, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: full)
        return full
    }

    /// The names in it, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
