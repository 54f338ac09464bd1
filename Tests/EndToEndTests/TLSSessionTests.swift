import Foundation
import Testing

/// A batch's flows share libcurl's TLS session cache, never connections
/// (Sources/CCurl/shim.c, ac_use_batch_share), checked by the https fixture's own count
/// of full and resumed handshakes for the run (Fixtures/server/tls_stats.py).
@Suite("TLS sessions shared across a batch")
struct TLSSessionTests {
    /// GET an admin URL of the https fixture (Fixtures/server/README.md) with the test CA.
    static func adminJSON(_ url: String, cacert: String) throws -> Any {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "--silent", "--show-error", "--fail", "--max-time", "10", "--cacert", cacert, url]
        let stdout = Pipe()
        curl.standardOutput = stdout
        curl.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try curl.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        guard curl.terminationStatus == 0 else { throw HarnessError("GET \(url) failed: curl exit \(curl.terminationStatus)") }
        return try JSONSerialization.jsonObject(with: data)
    }

    /// The run's counters, with `tls_full` and `tls_resumed`.
    static func stats(_ fx: Fixture, cacert: String) throws -> [String: Int] {
        ((try adminJSON("\(fx.base)/_stats/\(fx.run)", cacert: cacert)) as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }

    /// The final status of each of the run's requests.
    static func statuses(_ fx: Fixture, cacert: String) throws -> [Int] {
        ((try adminJSON("\(fx.base)/_hits/\(fx.run)", cacert: cacert)) as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
    }

    static func batch(_ tls: TLSServers.Started, users: ClosedRange<Int>, parallel: Int, _ name: String = #function) async throws -> (Fixture, RunResult) {
        let fx = Fixture(base: tls.good, run: "tls-\(name.prefix(12))-\(UUID().uuidString.prefix(8))")
        let file = try TempFile(BatchTests.csv(users))
        let result = try await run(fx.publicClient("users") + ["--cacert", "\(tls.pki)/ca.pem", "--users", file.path,
                                                              "--parallel", "\(parallel)"], timeout: 120)
        return (fx, result)
    }

    /// One worker: the first flow's handshake is full, every later flow
    /// resumes the session it left; still one connection per flow.
    @Test func oneWorkerResumesEveryLaterHandshake() async throws {
        let tls = try await TLSServers.shared.servers()
        let (fx, result) = try await Self.batch(tls, users: 1...6, parallel: 1)
        #expect(result.exitCode == 0, "\(result)")
        #expect(BatchTests.lines(result).compactMap { $0["token"] }.count == 6, "\(result)")
        let stats = try Self.stats(fx, cacert: "\(tls.pki)/ca.pem")
        #expect(stats["tls_full"] == 1 && stats["tls_resumed"] == 5, "\(stats)")
    }

    /// Several workers at once: each flow opens its own connection (six
    /// handshakes for six users: nothing shares a connection), and flows
    /// that start after a session is cached resume it.
    @Test func workersResumeButNeverShareAConnection() async throws {
        let tls = try await TLSServers.shared.servers()
        let (fx, result) = try await Self.batch(tls, users: 1...9, parallel: 3)
        #expect(result.exitCode == 0, "\(result)")
        let lines = BatchTests.lines(result)
        #expect(lines.count == 9)
        for (index, line) in lines.enumerated() {
            let token = try #require(line["token"] as? [String: Any], "\(line)")
            #expect(BatchTests.subject(token) == nil || BatchTests.subject(token) == "user\(index + 1)")
        }
        let stats = try Self.stats(fx, cacert: "\(tls.pki)/ca.pem")
        #expect((stats["tls_full"] ?? 0) + (stats["tls_resumed"] ?? 0) == 9, "\(stats)")
        #expect((stats["tls_resumed"] ?? 0) >= 1, "\(stats)")
        // The fixture answers 409 when cookies cross users.
        let statuses = try Self.statuses(fx, cacert: "\(tls.pki)/ca.pem")
        #expect(!statuses.isEmpty && !statuses.contains(409), "\(statuses)")
    }

    /// A share libcurl refuses to set up (curl_share_setopt failing, by a
    /// preloaded stand-in for it) is one clear network error for the batch,
    /// never a crash or a flow racing on a share without locks; what was
    /// set up is torn down (CCurl/shim.c, ac_make_batch_share).
    @Test func aShareThatCannotBeMadeIsOneClearError() async throws {
        let source = try TempFile("""
            #include <curl/curl.h>
            CURLSHcode curl_share_setopt(CURLSH *share, CURLSHoption option, ...) { (void)share; (void)option; return CURLSHE_NOMEM; }
            """)
        let library = source.path + ".so"
        defer { try? FileManager.default.removeItem(atPath: library) }
        try TrustStoreTests.tool("/usr/bin/env", ["cc", "-x", "c", "-shared", "-fPIC", source.path, "-o", library])
        let fx = try await Fixture.make()
        let users = try TempFile(BatchTests.csv(1...2))
        let result = try await run(fx.publicClient("users") + ["--users", users.path, "--parallel", "2"], env: ["LD_PRELOAD": library])
        expectFailure(result, exit: 3, ["libcurl could not share TLS sessions between the batch's flows: Out of memory"])
        #expect(result.stderr == "authcode: error: libcurl could not share TLS sessions between the batch's flows: Out of memory\n", "\(result)")
    }

    /// One flow on its own uses no share and one connection: one full handshake.
    @Test func oneFlowOneHandshake() async throws {
        let tls = try await TLSServers.shared.servers()
        let fx = Fixture(base: tls.good, run: "tls-one-\(UUID().uuidString.prefix(8))")
        let result = try await run(fx.confidential("login-consent") + ["--cacert", "\(tls.pki)/ca.pem",
                                                                      "--form", "username=alice", "--form", "password=wonderland"],
                                   env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let stats = try Self.stats(fx, cacert: "\(tls.pki)/ca.pem")
        #expect(stats["tls_full"] == 1 && stats["tls_resumed"] == 0, "\(stats)")
    }
}
