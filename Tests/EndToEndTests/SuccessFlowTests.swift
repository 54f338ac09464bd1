import Foundation
import Testing

/// Exit 0 through the scenarios that need nothing but the right arguments:
/// redirects of every kind, delivery modes, iss, discovery, odd token bodies.
@Suite("Exit 0: flows that reach a token")
struct SuccessFlowTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// `callbackOnServer` puts the redirect_uri at `<issuer>/cb`, so the hits prove
        /// it is never fetched; `callbackUpperScheme` spells its scheme `HTTP:`.
        enum Base: Sendable { case endpoints, discovery, callbackOnServer, callbackUpperScheme }
        let scenario: String
        var base: Base = .endpoints
        /// Extra arguments; `{issuer}` becomes the scenario's issuer URL.
        var extra: [String] = []
        var redirect = Fixture.redirect
        var label: String?
        var testDescription: String { label ?? ([scenario] + extra).joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(scenario: "direct"),
        Case(scenario: "status-301"),
        Case(scenario: "status-303"),
        Case(scenario: "status-307"),
        Case(scenario: "status-308"),
        Case(scenario: "relative", base: .callbackOnServer),
        Case(scenario: "relative-dots", base: .callbackOnServer),
        Case(scenario: "relative", base: .callbackUpperScheme, label: "relative, redirect_uri scheme in upper case"),
        Case(scenario: "status-307", base: .callbackOnServer, label: "status-307 to a redirect_uri on the server"),
        Case(scenario: "form-post", base: .callbackOnServer, label: "form-post to a redirect_uri on the server"),
        Case(scenario: "direct", base: .callbackOnServer, extra: ["--response-mode", "fragment"], label: "fragment to a redirect_uri on the server"),
        Case(scenario: "direct", redirect: "http://127.0.0.1:8765/callback?app=1", label: "redirect_uri with a query"),
        Case(scenario: "direct", extra: ["--response-mode", "form_post"]),
        Case(scenario: "iss", extra: ["--expect-iss", "{issuer}"]),
        Case(scenario: "chain"),
        Case(scenario: "chain-307"),
        Case(scenario: "long-chain", extra: ["--max-hops", "20"]),
        Case(scenario: "cookie-flood"),
        Case(scenario: "pkce-required"),
        Case(scenario: "discovery", base: .discovery),
        Case(scenario: "discovery-8414", base: .discovery),
        Case(scenario: "discovery-no-s256", base: .discovery, extra: ["--pkce", "plain"]),
        // aud [client, "other"] with azp: "other" must be trusted by name (OIDC Core §3.1.3.7 item 3).
        Case(scenario: "idtoken-aud-array-azp", extra: ["--scope", "openid", "--expect-iss", "{issuer}", "--trust-audience", "other"]),
    ]

    @Test(arguments: cases)
    func reachesAToken(_ c: Case) async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer(c.scenario)
        var args: [String]
        switch c.base {
        case .endpoints: args = fx.publicClient(c.scenario, redirect: c.redirect)
        case .callbackOnServer: args = fx.publicClient(c.scenario, redirect: issuer + "/cb")
        case .callbackUpperScheme: args = fx.publicClient(c.scenario, redirect: "HTTP" + issuer.dropFirst("http".count) + "/cb")
        case .discovery: args = ["--issuer", issuer, "--client-id", "public-app", "--redirect-uri", Fixture.redirect]
        }
        args += c.extra.map { $0.replacingOccurrences(of: "{issuer}", with: issuer) }
        let result = try await run(args)
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
