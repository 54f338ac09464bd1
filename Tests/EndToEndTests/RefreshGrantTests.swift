import Foundation
import Testing

/// `--refresh-token`: RFC 6749 §6 with the run's client authentication, no
/// walk; an id_token in the answer checked without nonce (OIDC Core §12.2).
@Suite("Refresh grant")
struct RefreshGrantTests {
    /// A refresh token from a real flow of this run.
    static func refreshToken(_ fx: Fixture, _ scenario: String, extra: [String] = []) async throws -> String {
        let first = try await run(fx.publicClient(scenario) + extra)
        return try #require(expectTokenJSON(first)["refresh_token"] as? String)
    }

    @Test func redeemsWithoutAWalk() async throws {
        let fx = try await Fixture.make()
        let token = try await Self.refreshToken(fx, "direct")
        let before = try fx.hits(to: "authorize").count
        let result = try await run(fx.endpoints("direct") + ["--client-id", "public-app", "--refresh-token", "@-"], stdin: token + "\n")
        let json = expectTokenJSON(result)
        #expect(json["refresh_token"] as? String == token, "not rotated in this scenario")
        #expect(try fx.hits(to: "authorize").count == before, "no authorization request")
        let refresh = try #require(try fx.hits(to: "token").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        #expect(refresh.form["refresh_token"] == token)
        #expect(refresh.form["client_id"] == "public-app")
        #expect(refresh.form["redirect_uri"] == nil)
    }

    @Test func confidentialClientAuthenticatesWithBasic() async throws {
        let fx = try await Fixture.make()
        let first = try await run(fx.confidential("direct"), env: Fixture.demoSecretEnv)
        let token = try #require(expectTokenJSON(first)["refresh_token"] as? String)
        let result = try await run(["--token-url", fx.issuer("direct") + "/token", "--client-id", "demo-app"],
                                   env: Fixture.demoSecretEnv.merging(["AUTHCODE_REFRESH_TOKEN": token]) { $1 })
        expectTokenJSON(result)
        let refresh = try #require(try fx.hits(to: "token").last)
        #expect(refresh.headers["authorization"]?.hasPrefix("Basic ") == true)
        #expect(refresh.form["client_secret"] == nil)
        expectNoSecrets(in: result, fixture: fx, extra: [token, "demo-secret"])
    }

    @Test func scopeNarrowsAndIDTokenIsCheckedWithoutNonce() async throws {
        let fx = try await Fixture.make()
        let token = try await Self.refreshToken(fx, "direct", extra: ["--scope", "openid profile"])
        let result = try await run(fx.endpoints("direct") + ["--client-id", "public-app", "--refresh-token", token,
                                                              "--scope", "openid", "--expect-iss", fx.issuer("direct"), "-v"])
        let json = expectTokenJSON(result)
        #expect(json["id_token"] is String)
        // Endpoints by hand, no --jwks: no keys, and -v says so; no nonce after a refresh (OIDC Core §12.2).
        #expect(result.stderr.contains("* id_token: signature not checked: no keys (give --issuer or --jwks); iss; aud; exp; iat; sub\n"), "\(result)")
        #expect(try fx.hits(to: "token").last?.form["scope"] == "openid")
        expectNoSecrets(in: result, fixture: fx, extra: [token])
    }

    @Test func refusedIsExit7WithTheServersError() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.endpoints("direct") + ["--client-id", "public-app", "--refresh-token", "rt-not-a-real-one"])
        expectFailure(result, exit: 7, ["the token endpoint refused: 400 error=invalid_grant"])
        #expect(!result.stderr.contains("rt-not-a-real-one"))
    }

    @Test func rotatedTokenIsSingleUse() async throws {
        let fx = try await Fixture.make()
        let token = try await Self.refreshToken(fx, "rotate")
        let args = fx.endpoints("rotate") + ["--client-id", "public-app", "--refresh-token", token]
        let second = try #require(expectTokenJSON(try await run(args))["refresh_token"] as? String)
        #expect(second != token)
        expectFailure(try await run(args), exit: 7, ["error=invalid_grant"])
    }
}
