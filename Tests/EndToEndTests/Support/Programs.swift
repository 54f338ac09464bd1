import Foundation
import Testing

/// Runs another program (a shell, make, mandoc, man) found on PATH, bounded
/// and drained like `run`. A missing program fails the test with exit 127
/// (`make test-tools` installs zsh, fish and mandoc).
func runProgram(_ program: String, _ arguments: [String], env: [String: String] = [:], stdin: String? = nil,
                timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RunResult {
    try await run([program] + arguments, env: env, stdin: stdin, timeout: timeout, executable: "/usr/bin/env",
                  sourceLocation: sourceLocation)
}

/// A fresh directory, removed with everything in it when the test is done.
struct TempDir: ~Copyable {
    let path: String

    init(_ label: String = "dir") throws {
        path = NSTemporaryDirectory() + "authcode-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// Writes `contents` to `name` inside, with `mode`; returns the path.
    @discardableResult
    func file(_ name: String, _ contents: String = "", mode: Int = 0o644) throws -> String {
        let file = path + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    /// The names inside, sorted.
    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension Paths {
    /// `authcode-man`, built beside the binary under test.
    static var manGenerator: String {
        get throws {
            guard case .success(let binary) = binary else { throw HarnessError("authcode binary not found") }
            let path = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("authcode-man").path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw HarnessError("\(path) not found: build it with 'swift build --build-tests'")
            }
            return path
        }
    }
}

/// Every option name `--help` lists (`-H`, `--header`…): what a generated
/// completion or man page must cover.
func helpOptionNames() async throws -> Set<String> {
    let help = try await run(["--help"])
    var names = Set<String>()
    for line in help.stdout.split(separator: "\n") where line.hasPrefix("  -") || line.hasPrefix("      --") {
        // `  -H, --header <'name: value'>   …` or `      --issuer <url>   …`
        for word in line.split(separator: " ").prefix(2) {
            let name = word.hasSuffix(",") ? word.dropLast() : word
            if name.hasPrefix("-") { names.insert(String(name)) }
        }
    }
    return names
}
