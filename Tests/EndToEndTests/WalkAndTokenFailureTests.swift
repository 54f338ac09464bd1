import Foundation
import Testing

/// Exit 8 for a body over the transport's limit, README.md "Exit codes".
@Suite("Exit 8: oversized bodies")
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

    /// Bodies larger than libcurl's transport takes (Curl/CurlTransport.swift,
    /// 4 MiB); every other exit 6, 7 and 8 runs in-process
    /// (RunTests/WalkFailureRunTests).
    static let cases: [Case] = [
        Case(scenario: "token-huge", exit: 8, expected: ["/token"], tokenRequested: true),
        Case(scenario: "html-huge", exit: 8, expected: ["/authorize"]),
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
}
