import Foundation

/// The test venv's python (`make venv`: PyPI cryptography, webauthn), for
/// the independent side of the interop tests: Fixtures/jose/jose_tool.py,
/// Fixtures/webauthn/verify.py. Never our own code on both sides.
package enum VenvPython {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The checkout: the first folder above this file that holds Package.swift.
    package static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    /// AUTHCODE_DJANGO_PYTHON (set by `make test`), else <root>/.venv/bin/python.
    package static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment["AUTHCODE_DJANGO_PYTHON"] ?? ""
        let candidate = environment.isEmpty ? root.appendingPathComponent(".venv/bin/python").path : environment
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw Failure(description: "no venv python at \(candidate): run 'make venv'")
        }
        return candidate
    }

    /// Runs `script` (a path below the checkout) with `arguments`; its
    /// standard output, or a failure quoting its standard error.
    package static func run(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try python())
        process.arguments = [root.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(script) \(arguments.first ?? "") exited \(process.terminationStatus): " + String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    package static func hexString(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
