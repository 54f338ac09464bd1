import Foundation
import Testing

/// Exit 6 (no authorization response reached), 7 (the token endpoint refused)
/// and 8 (malformed response), README.md "Exit codes".
@Suite("Exit 6, 7 and 8: the walk and the token endpoint")
struct WalkAndTokenFailureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let scenario: String
        var extra: [String] = []
        let exit: Int32
        let expected: [String]
        /// Whether the token endpoint may have been called.
        var tokenRequested = false
        var testDescription: String { ([scenario] + extra).joined(separator: " ") + " → \(exit)" }
    }

    static let cases: [Case] = [
        // 6: no authorization response
        Case(scenario: "elsewhere", exit: 6, expected: ["/somewhere"]),
        Case(scenario: "loop", exit: 6, expected: ["loop"]),
        Case(scenario: "long-chain", exit: 6, expected: ["10", "--max-hops"]),
        Case(scenario: "long-chain", extra: ["--max-hops", "5"], exit: 6, expected: ["5 hops", "--max-hops"]),
        Case(scenario: "no-location", exit: 6, expected: ["Location"]),
        Case(scenario: "bad-location", exit: 6, expected: ["Location"]),
        Case(scenario: "non-utf8", exit: 6, expected: ["/authorize"]),
        Case(scenario: "nosuchscenario", exit: 6, expected: ["404"]),
        // 7: the token endpoint refused
        Case(scenario: "token-400", exit: 7, expected: ["invalid_grant", "The code has expired"], tokenRequested: true),
        Case(scenario: "token-401", exit: 7, expected: ["invalid_client", "Client authentication failed"], tokenRequested: true),
        Case(scenario: "token-500", exit: 7, expected: ["500"], tokenRequested: true),
        // 8: malformed
        Case(scenario: "token-bad-json", exit: 8, expected: ["JSON"], tokenRequested: true),
        Case(scenario: "token-no-access-token", exit: 8, expected: ["access_token"], tokenRequested: true),
        Case(scenario: "token-huge", exit: 8, expected: ["/token"], tokenRequested: true),
        Case(scenario: "token-deep", exit: 8, expected: ["/token"], tokenRequested: true),
        Case(scenario: "html-huge", exit: 8, expected: ["/authorize"]),
        Case(scenario: "idtoken-bad", extra: ["--scope", "openid"], exit: 8, expected: ["id_token"], tokenRequested: true),
    ]

    @Test(arguments: cases)
    func failure(_ c: Case) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.confidential(c.scenario) + c.extra, env: Fixture.demoSecretEnv)
        expectFailure(result, exit: c.exit, c.expected)
        let hits = try fx.hits()
        #expect(hits.contains { $0.endpoint == "token" } == c.tokenRequested, "token requested: \(hits.map(\.path))")
        #expect(!hits.contains { $0.endpoint == "cb" })
        #expect(result.stderr.utf8.count < 4_096, "a body excerpt, not the body\n\(result.stderr.prefix(500))")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func tokenErrorWithVerboseTraceKeepsSecretsOut() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.endpoints("token-401") + ["--client-id", "weird:app id", "--redirect-uri", Fixture.redirect, "-v"],
                                   env: ["AUTHCODE_CLIENT_SECRET": "p@ss:w/rd+ =%&"])
        expectFailure(result, exit: 7, ["invalid_client"])
        #expect(result.stderr.contains("> POST"), "-v traces the requests\n\(result)")
        expectNoSecrets(in: result, fixture: fx)
    }
}
