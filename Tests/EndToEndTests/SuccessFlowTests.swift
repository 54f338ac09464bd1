import Foundation
import Testing

/// Exit 0 over real connections to the fixture. The walk's decisions
/// (redirects of every kind, delivery modes, iss, discovery) run
/// in-process: RunTests/WalkDecisionRunTests.
@Suite("Exit 0: flows that reach a token")
struct SuccessFlowTests {
    /// The plain flow, and 200 Set-Cookie header lines in one response.
    @Test(arguments: ["direct", "cookie-flood"])
    func reachesAToken(scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario))
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(!hits.contains { $0.endpoint == "cb" }, "the redirect_uri must never be fetched: \(hits)")
        #expect(hits.filter { $0.endpoint == "token" }.count == 1, "one token request: \(hits)")
        #expect(!result.stderr.contains("authcode: error"), "\(result)")
        expectNoSecrets(in: result, fixture: fx)
    }

    /// One libcurl handle for the whole run: the walk and the token request
    /// share one kept-alive connection to the same server.
    @Test func oneConnectionServesTheWholeWalk() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.confidential("login-consent") + ["-v", "--form", "username=alice", "--form", "password=wonderland"],
                                   env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let statusLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("< ") && $0.contains(" bytes, ") }
        #expect(statusLines.count == 6, "\(result)")
        #expect(statusLines.filter { $0.hasSuffix("new connection)") }.count == 1, "\(result)")
        #expect(statusLines.dropFirst().allSatisfy { $0.hasSuffix("reused connection)") }, "\(result)")
    }

    @Test func localhostIsLoopback() async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer("direct").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let result = try await run(["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                                    "--client-id", "demo-app", "--redirect-uri", Fixture.redirect], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
    }
}
