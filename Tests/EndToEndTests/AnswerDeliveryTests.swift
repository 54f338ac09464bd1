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

/// Exit codes per kind of fault: a response the transport cannot frame is a
/// network error (3); well-framed wrong content is 8; hostile numbers never trap.
@Suite("Hostile responses: framing, numbers, shapes")
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

    /// exp must be a finite JSON number; far-future finite ones are fine.
    @Test(arguments: [
        ("neg-huge", "id_token exp is not a finite JSON number"), ("pos-huge", "id_token exp is not a finite JSON number"),
        ("nan-string", "id_token exp is not a finite JSON number"), ("string", "id_token exp is not a finite JSON number"),
        ("null", "id_token exp is not a finite JSON number"),
    ])
    func idTokenExpThatIsNoTimeIsExit5(variant: String, says: String) async throws {
        let fx = try await Fixture.make()
        let scenario = "idtoken-exp-\(variant)"
        let result = try await run(fx.publicClient(scenario))
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the code was redeemed, but the token response was refused: \(says) (\(fx.issuer(scenario))/token)\n", "\(result)")
        #expect(try fx.hits(to: "token").count == 1)
    }

    @Test(arguments: ["big", "pow70"])
    func idTokenExpFarInTheFutureIsValid(variant: String) async throws {
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(fx.publicClient("idtoken-exp-\(variant)")))
    }

    @Test(arguments: [
        ("idtoken-not-string", "the id_token is neither a string nor null"),
        ("idtoken-payload-array", "the id_token's payload is not a JSON object"),
    ])
    func idTokenOfTheWrongShapeIsExit8(scenario: String, says: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario))
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the code was redeemed, but the token response was refused: \(says) (\(fx.issuer(scenario))/token)\n", "\(result)")
    }

    @Test func nullIdTokenIsNoIdToken() async throws {
        let fx = try await Fixture.make()
        let token = expectTokenJSON(try await run(fx.publicClient("idtoken-null")))
        #expect(token["id_token"] is NSNull)
    }

    /// expires_in is printed as received and never traps; expires_at refuses what is no lifetime.
    @Test(arguments: ["neg-huge", "pos-huge", "big", "nan-string", "null", "pow70"])
    func hostileExpiresIn(variant: String) async throws {
        let fx = try await Fixture.make()
        let scenario = "token-expires-\(variant)"
        let json = try await run(fx.publicClient(scenario))
        #expect(json.exitCode == 0 && json.stdout.contains(#""expires_in":"#), "\(json)")
        let expiresAt = try await run(fx.publicClient(scenario) + ["--print", "expires_at"])
        expectFailure(expiresAt, exit: 8, ["nothing usable about expiry"])
    }
}
