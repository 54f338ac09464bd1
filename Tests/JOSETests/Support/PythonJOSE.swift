import Core
import Foundation
import TestSupport

/// The independent side of the interop tests: Fixtures/jose/jose_tool.py run
/// with the test venv's python (PyPI `cryptography`). Its keys and tokens
/// are made once per test process into a temporary folder, removed at exit.
enum PythonJOSE {
    typealias Failure = VenvPython.Failure

    struct Key {
        /// The public JWK as Python wrote it (with kid = the key's name).
        let publicJWK: JSONValue
        /// Files by format: jwk, pkcs8, encrypted, traditional, traditional_encrypted.
        let files: [String: String]
    }

    struct Token {
        let alg: String
        let key: String?
        let secret: [UInt8]?
        let payload: [UInt8]
        let token: String
        let kind: String?
    }

    struct Fixture {
        let keys: [String: Key]
        let tokens: [Token]
    }

    static let directory: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("authcode-jose-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
        atexit { try? FileManager.default.removeItem(atPath: PythonJOSE.directory) }
        return path
    }()

    private static let made: Result<Fixture, Failure> = {
        do {
            _ = try run(["keys", directory])
            let text = try String(contentsOfFile: directory + "/manifest.json", encoding: .utf8)
            guard let manifest = JSONValue.parse(Array(text.utf8)), case .object(let keys)? = manifest["keys"],
                  case .array(let tokens)? = manifest["tokens"] else {
                return .failure(Failure(description: "manifest.json is not what jose_tool.py writes"))
            }
            var parsedKeys: [String: Key] = [:]
            for (name, entry) in keys {
                guard case .object(let members) = entry, let publicJWK = members["public"] else { continue }
                var files: [String: String] = [:]
                for (format, path) in members where format != "public" { files[format] = path.stringValue }
                parsedKeys[name] = Key(publicJWK: publicJWK, files: files)
            }
            let parsedTokens = tokens.compactMap { item -> Token? in
                guard let alg = item["alg"]?.stringValue, let token = item["token"]?.stringValue,
                      let payload = item["payload"]?.stringValue else { return nil }
                return Token(alg: alg, key: item["key"]?.stringValue, secret: item["secret"]?.stringValue.map(hex),
                             payload: hex(payload), token: token, kind: item["case"]?.stringValue)
            }
            return .success(Fixture(keys: parsedKeys, tokens: parsedTokens))
        } catch let error as Failure {
            return .failure(error)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    static func fixture() throws -> Fixture { try made.get() }

    /// One verification job for `jose_tool.py verify`.
    struct Job {
        var token: String
        var alg: String
        var key: JSONValue?
        var secret: [UInt8]?
        var typ: String?
        var kid: String?
        var jwk: JSONValue?
        var payload: [UInt8]?

        var json: String {
            var members: [String: JSONValue] = ["token": .string(token), "alg": .string(alg)]
            if let key { members["key"] = key }
            if let secret { members["secret"] = .string(hexString(secret)) }
            if let typ { members["typ"] = .string(typ) }
            if let kid { members["kid"] = .string(kid) }
            if let jwk { members["jwk"] = jwk }
            if let payload { members["payload"] = .string(hexString(payload)) }
            return JSONText.serialize(.object(members))
        }
    }

    /// Python's verdict on each job, in order: "ok" or "fail: …".
    static func verify(_ jobs: [Job]) throws -> [String] {
        let path = directory + "/jobs-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try (jobs.map(\.json).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try run(["verify", path]).split(separator: "\n").map(String.init)
    }

    private static func run(_ arguments: [String]) throws -> String {
        try VenvPython.run("Fixtures/jose/jose_tool.py", arguments)
    }

    static func hex(_ text: String) -> [UInt8] { VenvPython.hex(text) }

    static func hexString(_ bytes: [UInt8]) -> String { VenvPython.hexString(bytes) }
}
