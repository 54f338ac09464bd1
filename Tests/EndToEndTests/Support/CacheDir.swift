import Foundation

/// A fresh cache directory for one test (mode 0700, like authcode makes),
/// removed when the test is done with it.
struct CacheDir: ~Copyable {
    /// Made by the test; `path` below it is left for authcode to create.
    let root: String
    let path: String

    init() throws {
        root = NSTemporaryDirectory() + "authcode-cache-\(UUID().uuidString.prefix(8))"
        path = root + "/nested/authcode"
    }

    var flags: [String] { ["--cache", "--cache-dir", path] }

    /// The files in it, by suffix (`.token`, `.lock`).
    func files(_ suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(suffix) }.map { path + "/" + $0 }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }
}

extension Fixture {
    /// The fixture's counters for this run (Fixtures/server/README.md, `/_stats`).
    func stats() throws -> [String: Int] {
        let data = try httpGet("\(base)/_stats/\(run)")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }
}
