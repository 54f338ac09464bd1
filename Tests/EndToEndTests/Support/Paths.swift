import Foundation

/// Where things are: the package root (for the fixture scripts) and the
/// `authcode` binary under test.
enum Paths {
    /// The package root: the nearest folder above this file holding Package.swift
    /// (Tests/EndToEndTests/Support/Paths.swift → up 3).
    static let packageRoot: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir.deleteLastPathComponent()
        }
        // Tests/EndToEndTests/Support → root, as a last resort.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// `AUTHCODE_BIN` if set, else `authcode` beside the running test executable
    /// (SwiftPM puts `authcodePackageTests.xctest` next to it on Linux; on macOS the
    /// bundle's executable sits a few folders deeper, so parents are tried too).
    static let binary: Result<String, HarnessError> = {
        let env = ProcessInfo.processInfo.environment
        if let explicit = env["AUTHCODE_BIN"], !explicit.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                return .failure(HarnessError("AUTHCODE_BIN='\(explicit)' is not an executable file"))
            }
            return .success(explicit)
        }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
        var tried: [String] = []
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("authcode").path
            tried.append(candidate)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return .success(candidate)
            }
            dir.deleteLastPathComponent()
        }
        return .failure(HarnessError(
            "authcode binary not found (tried \(tried.joined(separator: ", "))): build it with "
                + "'swift build --build-tests' or set AUTHCODE_BIN"))
    }()
}

/// A harness problem (missing binary, a server that did not start): the test fails with this text.
struct HarnessError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
