import Foundation
import Testing

/// OIDC Core §12.2 and issue 17 class 5: a refreshed id_token is verified
/// like any other but for nonce, and must name the same issuer, subject,
/// audience (and azp, auth_time) as the stored one; otherwise exit 5 and the
/// cache entry is dropped, so the next run logs in anew.
@Suite("Verification: a refreshed id_token keeps the user")
struct RefreshIdentityTests {
    /// `--min-ttl 3600` makes a fresh 3600 s token stale at once: the next run refreshes it.
    static let stale = ["--min-ttl", "3600"]

    @Test func sameUserIsAccepted() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.signedFlow() + cache.flags))
        let refreshed = try await run(fx.signedFlow() + cache.flags + Self.stale + ["-v"])
        expectTokenJSON(refreshed)
        #expect(traceLines(refreshed, "id_token:")
            == ["* id_token: signature RS256 kid k1; iss; aud; exp; iat; sub; same iss, sub, aud, auth_time as the stored id_token"], "\(refreshed)")
        #expect(try fx.stats()["refreshes"] == 1)
    }

    @Test(arguments: [
        ("other-sub", "the refreshed id_token's sub differs from the stored id_token's (OIDC Core §12.2)"),
        ("auth-time-changed", "the refreshed id_token's auth_time differs from the stored id_token's (OIDC Core §12.2)"),
        ("other-iss", "id_token iss is not the expected issuer '{issuer}'"),
        ("other-aud", "id_token aud does not contain this client 'public-app'"),
    ])
    func anotherIdentityDropsTheEntry(variant: String, message: String) async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.signedFlow() + cache.flags))
        #expect(cache.files(".token").count == 1)
        try fx.configure(#"{"refresh_id_token":"\#(variant)"}"#)
        let refreshed = try await run(fx.signedFlow() + cache.flags + Self.stale)
        #expect(refreshed.exitCode == 5, "\(refreshed)")
        #expect(refreshed.stdout.isEmpty)
        let expected = message.replacingOccurrences(of: "{issuer}", with: fx.issuer("signed"))
        #expect(refreshed.stderr == "authcode: error: the refresh token was redeemed, but the token response was refused: \(expected) (\(fx.issuer("signed"))/token)\n",
                "\(refreshed)")
        #expect(cache.files(".token").isEmpty, "the entry is dropped")
        #expect(!refreshed.stderr.contains("mallory") && !refreshed.stderr.contains("other-issuer"))
        // The next run logs in anew.
        try fx.configure("{}")
        expectTokenJSON(try await run(fx.signedFlow() + cache.flags))
        let stats = try fx.stats()
        #expect(stats["refreshes"] == 1 && stats["codes_redeemed"] == 2, "\(stats)")
    }

    /// A bare --refresh-token has no stored id_token to compare with: only
    /// the rules that hold for any id_token apply.
    @Test func bareRefreshTokenChecksTheRulesOnly() async throws {
        let fx = try await Fixture.make()
        let first = expectTokenJSON(try await run(fx.signedFlow()))
        let refreshToken = try #require(first["refresh_token"] as? String)
        try fx.configure(#"{"refresh_id_token":"other-sub"}"#)
        let result = try await run(["--issuer", fx.issuer("signed"), "--client-id", "public-app", "--refresh-token", "@-", "-v"], stdin: refreshToken + "\n")
        expectTokenJSON(result)
        #expect(traceLines(result, "id_token:") == ["* id_token: signature RS256 kid k1; iss; aud; exp; iat; sub"], "\(result)")
        try fx.configure(#"{"refresh_id_token":"other-iss"}"#)
        let otherIssuer = try await run(["--issuer", fx.issuer("signed"), "--client-id", "public-app", "--refresh-token", "@-"], stdin: refreshToken + "\n")
        #expect(otherIssuer.exitCode == 5, "\(otherIssuer)")
        expectNoSecrets(in: result, fixture: fx, extra: [refreshToken])
    }
}
