import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// `-K FILE` and `AUTHCODE_CONFIG` (README.md "Config files") with real
/// files. Moved from EndToEndTests/ConfigFileFlowTests.
struct ConfigFileRunTests {
    /// The README's set-up: a committed config per environment, the password
    /// in a file of its own, the client secret from CI's secret store (the
    /// environment). The flow walks login and consent.
    @Test func aCommittedConfigAndASecretFromTheEnvironment() throws {
        let server = ScriptedServer(.loginAndConsent)
        let dir = try TempDir()
        let password = try dir.file("password", "wonderland\n", mode: 0o600)
        let config = try dir.file("staging.conf", """
            # staging: committed with the tests
            authorize-url   \(server.authorizeURL)
            token-url:      \(server.tokenURL)
            client-id = demo-app
            --redirect-uri \(ScriptedServer.redirect)
            scope "openid profile"
            expect-iss \(server.origin)
            form username=alice
            form password=@\(password)
            print access_token
            """, mode: 0o644)
        let ran = authcode(["-K", config], env: ScriptedServer.demoSecretEnv, server: server)
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.err.isEmpty, "\(ran)")
        let token = try #require(server.lastTokenBody.flatMap(jsonObject)?["access_token"] as? String)
        #expect(ran.out == token + "\n", "the access token alone")
        #expect(server.requests(to: "/authorize").first?.form["scope"] == "openid profile")
        #expect(server.requests(to: "/login").last?.form["username"] == "alice")
        #expect(server.requests(to: "/login").last?.form["password"] == "wonderland")

        // The same through AUTHCODE_CONFIG; a flag still wins over the file.
        let viaEnvironment = authcode(["--print", "json"], env: ScriptedServer.demoSecretEnv.merging(["AUTHCODE_CONFIG": config]) { $1 }, server: server)
        expectToken(viaEnvironment, from: server)
    }

    @Test func aSecretInAFileOthersCanReadStopsBeforeAnyRequest() throws {
        let server = ScriptedServer()
        let dir = try TempDir()
        let arguments = server.confidential()
        let lines = stride(from: 0, to: arguments.count, by: 2).map { "\(arguments[$0]) \(arguments[$0 + 1])" }
        let config = try dir.file("ci.conf", lines.joined(separator: "\n") + "\nclient-secret demo-secret\n", mode: 0o644)
        let ran = authcode(["-K", config], server: server)
        expectFailure(ran, .usage, """
            authcode: error: config file '\(config)' holds a secret ('--client-secret' on line 5) and group or others can read it; run 'chmod 600 \(config)'
            Or keep the secret in a file of its own and name that file with @FILE in the config file.

            """)
        #expect(ran.requests.isEmpty, "no request at all")

        #expect(chmod(config, 0o600) == 0)
        expectToken(authcode(["-K", config], server: server), from: server)
    }

    @Test func anUnknownOptionNamesTheFileAndLine() throws {
        let dir = try TempDir()
        let config = try dir.file("team.conf", "# team\nclient-id cli\nredirect-url http://127.0.0.1:8765/cb\n", mode: 0o644)
        expectFailure(authcode(["-K", config]), .usage, """
            authcode: error: unknown option 'redirect-url' in a config file (\(config) line 3)
            Did you mean '--redirect-uri'? See 'authcode --help'.

            """)
    }

    @Test func aFIFOOrADirectoryIsRefusedAtOnce() throws {
        let dir = try TempDir()
        let fifo = dir.path + "/fifo.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody writes: opening it must not wait for a writer.
        expectFailure(authcode(["-K", fifo]), .usage, "authcode: error: cannot read config file '\(fifo)': it is not a regular file\nSee 'authcode --help'.\n")
        expectFailure(authcode(["-K", dir.path]), .usage, "authcode: error: cannot read config file '\(dir.path)': it is a directory\nSee 'authcode --help'.\n")
    }

    @Test func aConfigFileCannotNameAnother() throws {
        let dir = try TempDir()
        let other = try dir.file("other.conf", "scope openid\n")
        let config = try dir.file("team.conf", "-K \(other)\n")
        expectFailure(authcode(["--config", config]), .usage,
                      "authcode: error: a config file cannot name another one ('--config'); name every file on the command line (\(config) line 1)\n"
                      + "See 'authcode --help'.\n")
    }
}
