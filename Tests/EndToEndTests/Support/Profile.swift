import Foundation
import Testing

/// Support for the modern client profile's end-to-end tests: client keys
/// made by PyPI `cryptography` (Fixtures/jose/jose_tool.py, never by
/// authcode), the run's fixture config, the hits with what the fixture
/// decoded and verified (Fixtures/server/README.md, "What a test reads
/// back"), and a real curl for the resource call.
actor ProfileKeys {
    static let shared = ProfileKeys()

    /// One key in every file format jose_tool writes, all mode 0600.
    struct Key: Sendable {
        let name: String
        /// The public JWK as Python wrote it, kid = the key's name, as JSON text.
        let publicJWK: String
        /// `jwk` (private JWK with kid), `pkcs8`, `traditional` (PKCS#1/SEC1; not Ed25519).
        let files: [String: String]

        func file(_ format: String) -> String { files[format] ?? "missing-\(format)-\(name)" }
    }

    private var made: Result<[String: Key], HarnessError>?

    func keys() throws(HarnessError) -> [String: Key] {
        if made == nil { made = Self.make() }
        return try made!.get()
    }

    func key(_ name: String) throws(HarnessError) -> Key {
        guard let key = try keys()[name] else { throw HarnessError("jose_tool.py made no key \(name)") }
        return key
    }

    private static func make() -> Result<[String: Key], HarnessError> {
        guard let python = DjangoServer.python() else { return .failure(HarnessError(DjangoServer.missingVenv)) }
        let directory = NSTemporaryDirectory() + "authcode-profile-keys-\(UUID().uuidString.prefix(8))"
        let tool = Paths.packageRoot.appendingPathComponent("Fixtures/jose/jose_tool.py").path
        do {
            _ = try runTool(python, [tool, "keys", directory])
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as? [String: Any]
            var keys: [String: Key] = [:]
            for (name, entry) in (manifest?["keys"] as? [String: [String: Any]]) ?? [:] {
                let files = entry.filter { $0.key != "public" }.compactMapValues { $0 as? String }
                for path in files.values { chmod(path, 0o600) }
                let jwk = try JSONSerialization.data(withJSONObject: entry["public"] ?? [:], options: [.sortedKeys])
                keys[name] = Key(name: name, publicJWK: String(decoding: jwk, as: UTF8.self), files: files)
            }
            return keys.isEmpty ? .failure(HarnessError("jose_tool.py wrote no keys")) : .success(keys)
        } catch {
            return .failure(HarnessError("jose_tool.py keys failed: \(error)"))
        }
    }
}

/// Runs a helper program to its end; its stdout.
@discardableResult
func runTool(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
    process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
    try? input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let problem = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw HarnessError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: problem, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
}

extension Fixture {
    /// Replaces this run's config (Fixtures/server/README.md "Config keys").
    func configure(_ config: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: config)
        try httpPost("\(base)/_config/\(run)", json: String(decoding: data, as: UTF8.self))
    }

    /// `client_jwks` holding these keys' public JWKs (kid = name, unless dropped).
    static func clientJWKS(_ keys: [ProfileKeys.Key], withKids: Bool = true) throws -> [String: Any] {
        let jwks = try keys.map { key -> [String: Any] in
            var jwk = try JSONSerialization.jsonObject(with: Data(key.publicJWK.utf8)) as? [String: Any] ?? [:]
            if !withKids { jwk["kid"] = nil }
            return jwk
        }
        return ["keys": jwks]
    }

    /// Every hit of this run with its `decoded` part, oldest first.
    func profileHits() throws -> [ProfileHit] {
        let data = try httpGet("\(base)/_hits/\(run)")
        let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return array.map(ProfileHit.init)
    }

    /// The hits to `<issuer>/<last>` (`par`, `token`, `authorize`, `resource`).
    func profileHits(to last: String) throws -> [ProfileHit] {
        try profileHits().filter { $0.hit.endpoint == last }
    }

    /// The common flags of the signing scenarios: discovery, demo-app, the redirect_uri, openid.
    func profileFlow(_ scenario: String = "signed", client: String = "demo-app") -> [String] {
        ["--issuer", issuer(scenario), "--client-id", client, "--redirect-uri", Fixture.redirect, "--scope", "openid"]
    }
}

/// A hit as `Hit` reads it, plus what the signing scenarios decoded.
struct ProfileHit {
    let hit: Hit
    let decoded: [String: Any]

    init(_ object: [String: Any]) {
        hit = Hit(object)
        decoded = object["decoded"] as? [String: Any] ?? [:]
    }

    /// `decoded[part][member]` (`client_assertion`/`claims`, `dpop`/`header`…).
    func part(_ part: String, _ member: String) -> [String: Any] {
        (decoded[part] as? [String: Any])?[member] as? [String: Any] ?? [:]
    }

    var assertionClaims: [String: Any] { part("client_assertion", "claims") }
    var assertionHeader: [String: Any] { part("client_assertion", "header") }
    var proofClaims: [String: Any] { part("dpop", "claims") }
    var proofHeader: [String: Any] { part("dpop", "header") }
    var clientAuthMethod: String? { (decoded["client_auth"] as? [String: Any])?["method"] as? String }
}

// jwtPart(_:_:), a JWT read but not verified, is in Signed.swift.

/// The RFC 7638 thumbprint of a public JWK, computed by Python's hashlib
/// (not by authcode).
func pythonThumbprint(_ jwkJSON: String) throws -> String {
    let script = """
        import base64, hashlib, json, sys
        k = json.loads(sys.stdin.read())
        names = {"RSA": ["e", "kty", "n"], "EC": ["crv", "kty", "x", "y"], "OKP": ["crv", "kty", "x"]}[k["kty"]]
        text = json.dumps({n: k[n] for n in names}, separators=(",", ":"), sort_keys=True)
        print(base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode())
        """
    return try runTool("python3", ["-c", script], stdin: Data(jwkJSON.utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
}

extension Fixture {
    /// A proof printed for curl is sent after authcode has exited; on a busy
    /// machine more than the fixture's 10 s `iat` window can pass between
    /// the two (a CI run saw it), and that window is not what these tests
    /// check: they widen it.
    static var proofsSentLater: [String: Any] { ["dpop_iat_window": 300] }
}

/// `curl -s -H @- URL` with `headers` on its stdin, as the README's DPoP
/// recipe pipes `authcode --print header --dpop-for …` into it: the status
/// and the body.
func curlWithHeaders(_ headers: String, _ url: String) throws -> (status: Int, body: String) {
    let output = try runTool("curl", ["-s", "--max-time", "10", "-H", "@-", "-w", "\n%{http_code}", url], stdin: Data(headers.utf8))
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
}
