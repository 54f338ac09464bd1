import Foundation
import Testing

/// One test's corner of the fixture server: a unique run id, so tests can run in
/// parallel, and the URLs and arguments built from it.
struct Fixture: Sendable {
    /// `http://127.0.0.1:PORT`
    let base: String
    let run: String

    /// The redirect_uri most tests use: nothing listens there, and nothing must.
    static let redirect = "http://127.0.0.1:8765/callback"

    /// A fresh run id from the test's name plus a UUID prefix.
    static func make(_ name: String = #function) async throws -> Fixture {
        let base = try await FixtureServer.shared.baseURL()
        let cleaned = String(name.map { $0.isLetter || $0.isNumber || "_.-".contains($0) ? $0 : "-" }.prefix(40))
        return Fixture(base: base, run: "\(cleaned)-\(UUID().uuidString.prefix(8))")
    }

    func issuer(_ scenario: String) -> String { "\(base)/t/\(run)/\(scenario)" }

    /// `--authorize-url … --token-url …` for a scenario.
    func endpoints(_ scenario: String) -> [String] {
        ["--authorize-url", issuer(scenario) + "/authorize", "--token-url", issuer(scenario) + "/token"]
    }

    /// The public client with PKCE: no secret anywhere.
    func publicClient(_ scenario: String, redirect: String = Fixture.redirect) -> [String] {
        endpoints(scenario) + ["--client-id", "public-app", "--redirect-uri", redirect]
    }

    /// The confidential `demo-app`; the secret goes in through the environment
    /// (pass `Fixture.demoSecretEnv` as `env:`) to keep the command line clean.
    func confidential(_ scenario: String, redirect: String = Fixture.redirect) -> [String] {
        endpoints(scenario) + ["--client-id", "demo-app", "--redirect-uri", redirect]
    }

    static let demoSecretEnv = ["AUTHCODE_CLIENT_SECRET": "demo-secret"]

    /// Every request the server saw for this run, oldest first.
    func hits() throws -> [Hit] {
        // Foundation's Data(contentsOf:) reads only file URLs on Linux: a tiny GET with curl.
        let data = try httpGet("\(base)/_hits/\(run)")
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw HarnessError("GET /_hits/\(run) is not a JSON array: \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
        return array.map(Hit.init)
    }

    /// Hits whose path ends with `/<last>` (`authorize`, `token`, `login`, `cb`…).
    func hits(to last: String) throws -> [Hit] {
        try hits().filter { $0.endpoint == last }
    }
}

/// The fixture server's other origins (Fixtures/server/README.md, "Other origins").
extension Fixture {
    /// `http://127.0.0.2:PORT`: another host.
    func otherHost() async throws -> String { try await FixtureServer.shared.otherURLs()[0] }
    /// `http://127.0.0.1:PORT2`: the same host, another port — another origin too.
    func otherPort() async throws -> String { try await FixtureServer.shared.otherURLs()[1] }

    /// Tells this run's cross-origin scenarios which origin is "the other one".
    func useOther(_ origin: String) throws {
        try httpPost("\(base)/_config/\(run)", json: #"{"other":"\#(origin)"}"#)
    }

    /// The scenario's issuer as served by another listener.
    func issuer(_ scenario: String, at origin: String) -> String { "\(origin)/t/\(run)/\(scenario)" }

    /// `HOST:PORT` of a listener base URL, as hits name it.
    static func listener(_ origin: String) -> String {
        String(origin.dropFirst("http://".count))
    }
}

/// A JSON POST through curl (bounded to 10 s).
func httpPost(_ url: String, json: String) throws {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "--silent", "--fail", "--max-time", "10", "-H", "Content-Type: application/json", "--data-binary", json, url]
    let null = FileHandle(forWritingAtPath: "/dev/null")
    curl.standardOutput = null
    // Closed at once: descriptors held until Foundation frees the Process pile up (Runner.swift).
    defer { try? null?.close() }
    try curl.run()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else { throw HarnessError("POST \(url) failed: curl exit \(curl.terminationStatus)") }
}

/// The body of a GET, through curl (bounded to 10 s).
func httpGet(_ url: String) throws -> Data {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "--silent", "--show-error", "--fail", "--max-time", "10", url]
    let stdout = Pipe(), stderr = Pipe()
    let null = FileHandle(forReadingAtPath: "/dev/null")
    curl.standardOutput = stdout
    curl.standardError = stderr
    curl.standardInput = null
    // Closed at once: descriptors held until Foundation frees the Process pile up (Runner.swift).
    defer {
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        try? null?.close()
    }
    try curl.run()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    let problem = stderr.fileHandleForReading.readDataToEndOfFile()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else {
        throw HarnessError("GET \(url) failed: curl exit \(curl.terminationStatus): \(String(decoding: problem, as: UTF8.self))")
    }
    return data
}

/// One recorded request (Fixtures/server/README.md, "hits").
struct Hit: Sendable, CustomStringConvertible {
    let method: String
    let path: String
    let query: String
    let headers: [String: String]
    let form: [String: String]
    /// The top-level string members of a JSON body.
    let json: [String: String]
    /// The final status the server answered (nil for a raw answer).
    let status: Int?
    /// `HOST:PORT` of the listener that received it.
    let listener: String

    init(_ object: [String: Any]) {
        method = object["method"] as? String ?? ""
        path = object["path"] as? String ?? ""
        query = object["query"] as? String ?? ""
        headers = object["headers"] as? [String: String] ?? [:]
        form = (object["form"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        json = (object["json"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        status = object["status"] as? Int
        listener = object["listener"] as? String ?? ""
    }

    /// The last path segment: `authorize`, `token`, `login`, `consent`, `cb`…
    var endpoint: String { path.split(separator: "/").last.map(String.init) ?? "" }

    /// The query, form-decoded ('+' is a space; the first value wins, like the server).
    var queryItems: [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if items[name] == nil { items[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return items
    }

    var description: String { "\(method) \(path)\(query.isEmpty ? "" : "?" + query) form=\(form)" }
}

/// Decodes stdout as one JSON object (nil when it is not).
func jsonObject(_ text: String) -> [String: Any]? {
    guard let data = text.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any]
}

/// A file holding `contents`, removed when the test is done with it.
struct TempFile: ~Copyable {
    let path: String
    init(_ contents: String) throws {
        path = NSTemporaryDirectory() + "authcode-e2e-\(UUID().uuidString)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
