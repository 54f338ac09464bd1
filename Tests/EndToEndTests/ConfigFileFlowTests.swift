import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `-K FILE` and `AUTHCODE_CONFIG` (README.md "Config files") with the real
/// binary, real files and the fixture server.
@Suite("Config files")
struct ConfigFileFlowTests {
    /// The README's set-up: a committed config per environment, the password
    /// in a file of its own, the client secret from CI's secret store (the
    /// environment). The flow walks login and consent.
    @Test func aCommittedConfigAndASecretFromTheEnvironment() async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("config")
        let password = try dir.file("password", "wonderland\n", mode: 0o600)
        let issuer = fx.issuer("login-consent")
        let config = try dir.file("staging.conf", """
            # staging: committed with the tests
            authorize-url   \(issuer)/authorize
            token-url:      \(issuer)/token
            client-id = demo-app
            --redirect-uri \(Fixture.redirect)
            scope "openid profile"
            expect-iss \(issuer)
            form username=alice
            form password=@\(password)
            print access_token
            """, mode: 0o644)
        let result = try await run(["-K", config], env: Fixture.demoSecretEnv)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasSuffix("\n") && !result.stdout.contains("{"), "the access token alone\n\(result)")
        #expect(try fx.hits(to: "authorize").first?.form["scope"] ?? fx.hits(to: "authorize").first?.queryItems["scope"] == "openid profile")
        #expect(try fx.hits(to: "login").last?.form["username"] == "alice")
        #expect(try fx.hits(to: "login").last?.form["password"] == "wonderland")

        // The same through AUTHCODE_CONFIG; a flag still wins over the file.
        let viaEnvironment = try await run(["--print", "json"], env: Fixture.demoSecretEnv.merging(["AUTHCODE_CONFIG": config]) { $1 })
        expectTokenJSON(viaEnvironment)
    }

    @Test func aSecretInAFileOthersCanReadStopsBeforeAnyRequest() async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("config")
        let config = try dir.file("ci.conf", fx.confidential("direct").chunked(2).map { "\($0[0]) \($0[1])" }.joined(separator: "\n")
                                    + "\nclient-secret demo-secret\n", mode: 0o644)
        let result = try await run(["-K", config])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            authcode: error: config file '\(config)' holds a secret ('--client-secret' on line 5) and group or others can read it; run 'chmod 600 \(config)'
            Or keep the secret in a file of its own and name that file with @FILE in the config file.

            """, "\(result)")
        #expect(!result.stderr.contains("demo-secret"))
        #expect(try fx.hits().isEmpty, "no request at all")

        #expect(chmod(config, 0o600) == 0)
        expectTokenJSON(try await run(["-K", config]))
    }

    @Test func anUnknownOptionNamesTheFileAndLine() async throws {
        let dir = try TempDir("config")
        let config = try dir.file("team.conf", "# team\nclient-id cli\nredirect-url http://127.0.0.1:8765/cb\n")
        let result = try await run(["-K", config])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr == """
            authcode: error: unknown option 'redirect-url' in a config file (\(config) line 3)
            Did you mean '--redirect-uri'? See 'authcode --help'.

            """, "\(result)")
    }

    @Test func aFIFOOrADirectoryIsRefusedAtOnce() async throws {
        let dir = try TempDir("config")
        let fifo = dir.path + "/fifo.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes: opening it must not wait for a writer.
        let result = try await run(["-K", fifo], timeout: 20)
        #expect(result.exitCode == 2 && !result.timedOut, "\(result)")
        #expect(result.errorLine == "authcode: error: cannot read config file '\(fifo)': it is not a regular file", "\(result)")
        let directory = try await run(["-K", dir.path])
        #expect(directory.errorLine == "authcode: error: cannot read config file '\(dir.path)': it is a directory", "\(directory)")
        #expect(directory.exitCode == 2)
    }

    @Test func aConfigFileCannotNameAnother() async throws {
        let dir = try TempDir("config")
        let other = try dir.file("other.conf", "scope openid\n")
        let config = try dir.file("team.conf", "-K \(other)\n")
        let result = try await run(["--config", config])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.errorLine == "authcode: error: a config file cannot name another one ('--config'); name every file on the command line (\(config) line 1)",
                "\(result)")
    }
}

extension Array {
    /// `[a, b, c, d]` → `[[a, b], [c, d]]`.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
