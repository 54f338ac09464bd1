import Core
import Foundation
@testable import Walk

/// The relying party on the other side of the passkey tests:
/// Fixtures/webauthn/verify.py run with the test venv's python (PyPI
/// `webauthn`, py_webauthn). It keeps each registered credential's public
/// key and count across the jobs of one call, as a relying party would, so
/// a count that does not rise fails there and not by our say-so.
enum PyWebAuthn {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let root: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    static let tool = root.appendingPathComponent("Fixtures/webauthn/verify.py").path

    /// AUTHCODE_DJANGO_PYTHON (set by `make test`), else <root>/.venv/bin/python.
    static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment["AUTHCODE_DJANGO_PYTHON"] ?? ""
        let candidate = environment.isEmpty ? root.appendingPathComponent(".venv/bin/python").path : environment
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw Failure(description: "no venv python at \(candidate): run 'make venv' (PyPI webauthn)")
        }
        return candidate
    }

    /// One job of verify.py, as its docstring describes.
    struct Job {
        var members: [String: JSONValue]

        static func register(_ response: RegistrationResponse, challenge: [UInt8], rpID: String, origin: String,
                             requireUV: Bool = true) -> Job {
            let credential: JSONValue = .object([
                "id": .string(Base64URL.encode(response.credentialID)),
                "rawId": .string(Base64URL.encode(response.credentialID)),
                "type": .string("public-key"),
                "response": .object([
                    "clientDataJSON": .string(Base64URL.encode(response.clientDataJSON)),
                    "attestationObject": .string(Base64URL.encode(response.attestationObject)),
                ]),
            ])
            return Job(members: ["op": .string("register"), "challenge": .string(Base64URL.encode(challenge)), "rpId": .string(rpID),
                                 "origin": .string(origin), "credential": credential, "requireUV": .bool(requireUV)])
        }

        static func authenticate(_ response: AssertionResponse, challenge: [UInt8], rpID: String, origin: String,
                                 requireUV: Bool = true) -> Job {
            let credential: JSONValue = .object([
                "id": .string(Base64URL.encode(response.credentialID)),
                "rawId": .string(Base64URL.encode(response.credentialID)),
                "type": .string("public-key"),
                "response": .object([
                    "clientDataJSON": .string(Base64URL.encode(response.clientDataJSON)),
                    "authenticatorData": .string(Base64URL.encode(response.authenticatorData)),
                    "signature": .string(Base64URL.encode(response.signature)),
                    "userHandle": .string(Base64URL.encode(response.userHandle)),
                ]),
            ])
            return Job(members: ["op": .string("authenticate"), "challenge": .string(Base64URL.encode(challenge)), "rpId": .string(rpID),
                                 "origin": .string(origin), "credential": credential, "requireUV": .bool(requireUV)])
        }

        /// A credential the relying party knows from elsewhere (a published
        /// vector's public key, as COSE_Key bytes).
        static func enrol(credentialID: [UInt8], publicKey: [UInt8], signCount: Int) -> Job {
            Job(members: ["op": .string("enrol"), "credentialId": .string(Base64URL.encode(credentialID)),
                          "publicKey": .string(Base64URL.encode(publicKey)), "signCount": .number(Double(signCount))])
        }

        /// The same job with one base64url member of the credential's
        /// response replaced (a tampered answer).
        func replacing(_ name: String, with bytes: [UInt8]) -> Job {
            var copy = self
            guard case .object(var credential)? = members["credential"], case .object(var response)? = credential["response"] else { return self }
            response[name] = .string(Base64URL.encode(bytes))
            credential["response"] = .object(response)
            copy.members["credential"] = .object(credential)
            return copy
        }

        func with(_ name: String, _ value: JSONValue) -> Job {
            var copy = self
            copy.members[name] = value
            return copy
        }
    }

    /// verify.py's verdict on each job, in order.
    static func verify(_ jobs: [Job]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authcode-webauthn-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("jobs.jsonl").path
        try (jobs.map { JSONText.serialize(.object($0.members)) }.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try python())
        process.arguments = [tool, path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "verify.py exited \(process.terminationStatus): " + String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    static func hexString(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
