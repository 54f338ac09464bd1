import Foundation
import Testing

/// Exit 4 (the server said error=) and exit 5 (a security check failed; the
/// code is never redeemed), ARCHITECTURE.md "Security rules".
@Suite("Exit 4 and 5: authorization errors and security checks")
struct SecurityCheckTests {
    @Test func accessDenied() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("error"))
        expectFailure(result, exit: 4, ["access_denied", "The user denied the request"])
        #expect(try fx.hits(to: "token").isEmpty)
    }

    /// State is checked before error: an error= nobody can tie to this
    /// request is exit 5, and its text is not shown (anyone can forge it).
    @Test func errorWithoutState() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("error-no-state"))
        expectFailure(result, exit: 5, ["the error answer (its text is not shown: anyone can forge it) has no state"])
        #expect(!result.stderr.contains("invalid_scope"), "\(result)")
        #expect(try fx.hits(to: "token").isEmpty)
    }

    @Test func invalidRequestRedirectedBack() async throws {
        let fx = try await Fixture.make()
        // A public client without PKCE: the fixture redirects error=invalid_request.
        let result = try await run(fx.publicClient("direct") + ["--pkce", "off"])
        expectFailure(result, exit: 4, ["invalid_request"])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        enum Base: Sendable { case endpoints, discovery }
        let scenario: String
        var base: Base = .endpoints
        var extra: [String] = []
        let expected: [String]
        /// The last request that may be seen; nothing at or after the token endpoint.
        var noRequestTo: String = "token"
        var testDescription: String { ([scenario] + extra).joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(scenario: "wrong-state", expected: ["state"]),
        Case(scenario: "wrong-iss", extra: ["--expect-iss", "{issuer}"], expected: ["iss", "https://evil.example"]),
        Case(scenario: "dup-code", expected: ["code"]),
        Case(scenario: "discovery-wrong-issuer", base: .discovery, expected: ["issuer", "https://other.example"], noRequestTo: "authorize"),
        Case(scenario: "discovery-iss-missing", base: .discovery, expected: ["iss"]),
        Case(scenario: "discovery", base: .discovery, extra: ["--authorize-url", "{base}/t/{run}/wrong-iss/authorize"], expected: ["iss"]),
        Case(scenario: "idtoken-wrong-iss", extra: ["--scope", "openid", "--expect-iss", "{issuer}"], expected: ["id_token iss is not the expected issuer"],
             noRequestTo: "none"),
        // No issuer given or in the answer: the token endpoint's origin is expected (issue 17 class 5).
        Case(scenario: "idtoken-wrong-iss", extra: ["--scope", "openid"], expected: ["id_token iss is not of the origin of http://127.0.0.1:", "pass --issuer or --expect-iss"],
             noRequestTo: "none"),
        Case(scenario: "idtoken-wrong-aud", extra: ["--scope", "openid"], expected: ["id_token aud does not contain this client 'public-app'"], noRequestTo: "none"),
        Case(scenario: "idtoken-expired", extra: ["--scope", "openid"], expected: ["id_token has expired"], noRequestTo: "none"),
        Case(scenario: "idtoken-wrong-nonce", extra: ["--scope", "openid"], expected: ["nonce"], noRequestTo: "none"),
        Case(scenario: "idtoken-aud-array-no-azp", extra: ["--scope", "openid"], expected: ["aud names an audience besides this client", "--trust-audience"],
             noRequestTo: "none"),
    ]

    @Test(arguments: cases)
    func securityCheckFails(_ c: Case) async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer(c.scenario)
        var args = c.base == .discovery
            ? ["--issuer", issuer, "--client-id", "public-app", "--redirect-uri", Fixture.redirect]
            : fx.publicClient(c.scenario)
        args += c.extra.map {
            $0.replacingOccurrences(of: "{issuer}", with: issuer).replacingOccurrences(of: "{base}", with: fx.base)
                .replacingOccurrences(of: "{run}", with: fx.run)
        }
        let result = try await run(args + ["-v"])
        expectFailure(result, exit: 5, c.expected)
        if c.noRequestTo != "none" {
            let hits = try fx.hits()
            #expect(!hits.contains { $0.endpoint == c.noRequestTo }, "the code is not redeemed after a failed check: \(hits)")
        }
        expectNoSecrets(in: result, fixture: fx)
    }

    /// With --connect-to pointing the host at the fixture, a product that failed to
    /// refuse would show up in the hits: none may arrive.
    @Test func plainHTTPRefusalSendsNothing() async throws {
        let fx = try await Fixture.make()
        let port = URL(string: fx.base)!.port!
        let base = "http://idp.example.invalid/t/\(fx.run)/direct"
        let args = ["--authorize-url", base + "/authorize", "--token-url", base + "/token", "--client-id", "demo-app",
                    "--redirect-uri", Fixture.redirect, "--connect-to", "idp.example.invalid:80:127.0.0.1:\(port)"]
        let refused = try await run(args, env: Fixture.demoSecretEnv)
        expectFailure(refused, exit: 5, ["--allow-http"])
        #expect(try fx.hits().isEmpty, "nothing may be sent over plain http to a non-loopback host")

        let allowed = try await run(args + ["--allow-http"], env: Fixture.demoSecretEnv)
        expectTokenJSON(allowed)
        #expect(try fx.hits().first?.headers["host"] == "idp.example.invalid", "--connect-to keeps the Host")
    }

    @Test func wrongStateNeverRedeems() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.confidential("wrong-state") + ["--print", "code"], env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 5, ["state"])
        #expect(try fx.hits().map(\.endpoint) == ["authorize"], "only the authorization request")
    }
}
