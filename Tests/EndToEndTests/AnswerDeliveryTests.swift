import Foundation
import Testing

/// Headers that only a wire has: a chunked body's trailer and a 103's fields
/// are not the response's (Curl/CurlExchange.swift). Where the answer may be
/// delivered is decided in-process (RunTests/WalkDecisionRunTests,
/// SecurityCheckRunTests).
@Suite("Answer delivery: trailers and interim responses")
struct AnswerDeliveryTests {
    /// A trailer after a chunked body and a 103's fields are not the response's headers.
    @Test(arguments: ["trailer-cookie", "interim-1xx"])
    func trailersAndInterimHeadersAreIgnored(scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario))
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(hits.map(\.endpoint) == ["authorize", "next", "token"], "the header Location was followed: \(hits)")
        #expect(hits.first { $0.endpoint == "next" }?.headers["cookie"] == "good=1", "no cookie from the trailer or the 1xx: \(hits)")
    }
}

/// A response the transport cannot frame is a network error (3). Well-framed
/// wrong content (8) and hostile numbers run in-process
/// (RunTests/TokenResponseRunTests).
@Suite("Hostile responses: framing")
struct HostileResponseTests {
    @Test(arguments: [
        ("http09", "authorize", "Received HTTP/0.9 when not allowed"),
        ("short-body", "authorize", "transfer closed with 90 bytes remaining to read"),
        ("endless-chunked", "authorize", "timed out: Operation timed out after "),
        ("token-http09", "token", "Received HTTP/0.9 when not allowed"),
        ("token-short-body", "token", "transfer closed with 90 bytes remaining to read"),
        ("token-endless-chunked", "token", "timed out: Operation timed out after "),
    ])
    func unframedResponseIsExit3(scenario: String, endpoint: String, says: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--timeout", "1"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine?.hasPrefix("authcode: error: \(says)") == true, "\(result)")
        #expect(result.errorLine?.hasSuffix("(\(fx.issuer(scenario))/\(endpoint))") == true, "\(result)")
        // Bounded by --timeout: libcurl's timeout ended the endless body
        // (the error says so); a hang would be killed by the runner (30 s).
    }
}
