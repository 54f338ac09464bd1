import Foundation
import Testing

/// Memory is bounded by the body limit (ARCHITECTURE "Security rules"): a token answer just
/// under 4 MiB that makes one value huge (Fixtures/server/large.py) takes a
/// flow no further than 64 MiB, and a `--parallel 8` batch of them no
/// further than 256 MiB. Each secret is remembered for redaction once, its
/// long forms as a length and a hash (Core/Redaction/LongFormSet.swift):
/// before, a trie of every form of the tokens took one flow to 362 MiB and
/// such a batch past 1 GiB. `-v` makes the redactor scrub, so it is on.
@Suite("Large answers: memory bounded by the body limit")
struct LargeAnswerMemoryTests {
    static let flowLimitMiB = 64.0
    static let batchLimitMiB = 256.0
    static let bodySize = 4_150_000

    @Test(arguments: ["token-large-kid", "token-large-access", "token-large-refresh", "token-large-claim"])
    func oneFlow(scenario: String) async throws {
        let fx = try await Fixture.make()
        // Kill timeouts only: a debug build spends seconds of CPU on 4 MB, more on a busy machine.
        let measured = try await runMeasuringPeakRSS(fx.publicClient(scenario) + ["--scope", "openid", "-v"], timeout: 300)
        let result = measured.result
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.utf8.count == Self.bodySize + 1, "the answer as received, on one line")
        #expect(measured.peakMiB < Self.flowLimitMiB, "peak RSS \(measured.peakMiB) MiB")
        // The trace scrubbed what it showed, and shows no token.
        let answer = try #require(jsonObject(result.stdout))
        for name in ["access_token", "refresh_token", "id_token"] {
            let token = try #require(answer[name] as? String)
            #expect(!result.stderr.contains(String(token.prefix(64))), "\(name) in the trace")
        }
    }

    @Test(arguments: ["token-large-claim", "token-large-access"])
    func aBatchOfEight(scenario: String) async throws {
        let fx = try await Fixture.make()
        let users = try TempFile("username\n" + (1...8).map { "user\($0)\n" }.joined())
        let measured = try await runMeasuringPeakRSS(fx.publicClient(scenario) + ["--scope", "openid", "--users", users.path, "--parallel", "8"],
                                                     timeout: 600)
        let result = measured.result
        #expect(result.exitCode == 0, "\(result.arguments) → exit \(result.exitCode)\n\(result.stderr.prefix(2_000))")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 8 && lines.allSatisfy { $0.hasPrefix("{\"line\":") && $0.utf8.count > Self.bodySize })
        #expect(measured.peakMiB < Self.batchLimitMiB, "peak RSS \(measured.peakMiB) MiB")
    }
}
