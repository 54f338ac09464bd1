import Foundation
import Testing

/// Credentials go only to trusted origins (README.md "Trusted origins";
/// HTTP/OriginPolicy.swift): the fixture server also listens on 127.0.0.2 and
/// on a second 127.0.0.1 port, two other origins, and records which listener
/// received what.
@Suite("Trusted origins: credentials stay with the servers the user named")
struct TrustedOriginTests {
    static let login = ["--form", "username=alice", "--form", "password=wonderland"]

    func hint(_ origin: String) -> String {
        "Credentials go only to the origins of --issuer, --authorize-url, --token-url, --step and the discovered endpoints; if \(origin) is part of this login, pass --trust-origin \(origin).\n"
    }

    /// A login form whose action is another host, or another port of the same host.
    @Test(arguments: [0, 1])
    func formToAnotherOriginIsExit6(otherIndex: Int) async throws {
        let fx = try await Fixture.make()
        let other = otherIndex == 0 ? try await fx.otherHost() : try await fx.otherPort()
        try fx.useOther(other)
        let result = try await run(fx.confidential("xorigin-form") + Self.login, env: Fixture.demoSecretEnv)
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: refusing to send the filled-in form (--form values) to \(other), which is not a trusted origin (\(other)/t/\(fx.run)/xorigin-form/login)", "\(result)")
        #expect(result.stderr.hasSuffix(hint(other)), "\(result)")
        let hits = try fx.hits()
        #expect(!hits.contains { $0.listener == Fixture.listener(other) }, "nothing reaches the other origin: \(hits)")
        #expect(!hits.contains { $0.endpoint == "token" })
    }

    @Test func trustOriginLetsTheFormGo() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let result = try await run(fx.confidential("xorigin-form") + Self.login + ["--trust-origin", other], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let elsewhere = try fx.hits().filter { $0.listener == Fixture.listener(other) }
        #expect(elsewhere.map(\.endpoint) == ["login"], "\(elsewhere)")
        #expect(elsewhere.first?.form["password"] == "wonderland")
        // The client secret and the verifier only ever go to the token endpoint.
        #expect(elsewhere.allSatisfy { $0.headers["authorization"] == nil && $0.form["code_verifier"] == nil && $0.form["client_secret"] == nil })
        expectNoSecrets(in: result, fixture: fx)
    }

    /// The environment works too, one origin per line.
    @Test func trustOriginFromTheEnvironment() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherPort()
        try fx.useOther(other)
        let result = try await run(fx.publicClient("xorigin-form") + Self.login,
                                   env: ["AUTHCODE_TRUST_ORIGIN": "https://unrelated.example\n\(other)/"])
        expectTokenJSON(result)
    }

    /// A 307 would replay the POSTed body (holding the password) to another
    /// host: refused, and the walk falls back to GET without the --form
    /// values (README.md "How the walk works", step 2), so nothing reaches it.
    @Test func replayedBodyToAnotherOriginIsNeverSent() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        let result = try await run(fx.publicClient("xorigin-307") + Self.login)
        expectTokenJSON(result)
        #expect(result.stderr.contains("authcode: note: the POST authorization request led nowhere;"),
                "\(result)")
        let hits = try fx.hits()
        #expect(!hits.contains { $0.listener == Fixture.listener(other) }, "\(hits)")
        #expect(hits.first?.form["password"] == "wonderland" && hits.dropFirst().allSatisfy { $0.form["password"] == nil || $0.endpoint == "login" },
                "the password went only to the trusted origin: \(hits)")

        let trusted = try await run(fx.publicClient("xorigin-307") + Self.login + ["--trust-origin", other])
        expectTokenJSON(trusted)
        #expect(!trusted.stderr.contains("note:"), "no fallback when the origin is trusted\n\(trusted)")
        #expect(try fx.hits().contains { $0.listener == Fixture.listener(other) && $0.form["password"] == "wonderland" })
    }

    /// The walk may pass through another origin; -H headers stay behind.
    @Test func headersStayWithTrustedOrigins() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        let result = try await run(fx.publicClient("echo-headers") + ["-H", "X-Api-Secret: qwerty-123456", "-H", "X-Tenant: t1", "-v"])
        expectTokenJSON(result)
        let hits = try fx.hits()
        let elsewhere = hits.filter { $0.listener == Fixture.listener(other) }
        #expect(elsewhere.count == 1, "\(hits)")
        #expect(elsewhere.allSatisfy { $0.headers["x-api-secret"] == nil && $0.headers["x-tenant"] == nil }, "\(elsewhere)")
        #expect(hits.filter { $0.listener != Fixture.listener(other) }.allSatisfy { $0.headers["x-api-secret"] == "qwerty-123456" })
        #expect(result.stderr.contains("* not sending the -H headers to \(other): not a trusted origin\n"), "\(result)")
        expectNoSecrets(in: result, fixture: fx, extra: ["qwerty-123456"])
    }

    /// Plain http to a host that is not loopback is checked first: exit 5.
    @Test func plainHTTPIsCheckedBeforeTrust() async throws {
        let fx = try await Fixture.make()
        try fx.useOther("http://login.example.invalid")
        let result = try await run(fx.publicClient("xorigin-form") + Self.login)
        expectFailure(result, exit: 5, ["refusing plain http to 'login.example.invalid'", "--allow-http"])
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "login"])
    }
}
