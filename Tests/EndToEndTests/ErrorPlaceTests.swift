import Foundation
import Testing

/// The error line names what failed (README "Output and exit codes"): `<where>` is the URL of
/// the request that failed — the key set's when the keys fail, userinfo's
/// when userinfo fails — never a neighbour's (Flow/TokenEndpoint.swift,
/// Flow/Verification/KeySetFetch.swift, UserInfoFetch.swift). The fixture's
/// `signed` scenario with `jwks_fault` and `userinfo_faults` huge (5 MiB,
/// over the 4 MiB body limit) and slow (past `--timeout`).
@Suite("The error line names what failed")
struct ErrorPlaceTests {
    static let tooLarge = "response body larger than 4 MiB"

    @Test func aKeySetOverTheLimitIsReportedAtItsURL() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"jwks_fault":"huge"}"#)
        let result = try await run(fx.signedFlow())
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stderr == "authcode: error: the code was redeemed, but the token response was refused: could not fetch the key set: "
                + "\(Self.tooLarge) (\(fx.issuer("signed"))/jwks)\n", "\(result)")
    }

    @Test func aKeySetTimingOutIsReportedAtItsURL() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"jwks_fault":"slow","jwks_delay":3}"#)
        let result = try await run(fx.signedFlow() + ["--timeout", "1"])
        #expect(result.exitCode == 3, "\(result)")
        let line = try #require(result.errorLine, "\(result)")
        // libcurl's words carry the milliseconds it waited: the rest is exact.
        #expect(line.hasPrefix("authcode: error: the code was redeemed, but the token response was refused: could not fetch the key set: timed out: ")
                && line.hasSuffix(" (\(fx.issuer("signed"))/jwks)"), "\(result)")
    }

    /// A refresh verifies its id_token with the same keys: the same place.
    @Test func aRefreshNamesTheKeySetToo() async throws {
        let fx = try await Fixture.make()
        let first = expectTokenJSON(try await run(fx.signedFlow()))
        let refreshToken = try #require(first["refresh_token"] as? String)
        try fx.configure(#"{"jwks_fault":"huge"}"#)
        let result = try await run(["--issuer", fx.issuer("signed"), "--client-id", "public-app", "--scope", "openid", "--refresh-token", "@-"],
                                   stdin: refreshToken + "\n")
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stderr == "authcode: error: the refresh token was redeemed, but the token response was refused: could not fetch the key set: "
                + "\(Self.tooLarge) (\(fx.issuer("signed"))/jwks)\n", "\(result)")
    }

    @Test func aUserinfoAnswerOverTheLimitIsReportedAtItsURL() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"userinfo_faults":["huge"]}"#)
        let result = try await run(fx.signedFlow() + ["--userinfo"])
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stderr == "authcode: error: \(Self.tooLarge) (\(fx.issuer("signed"))/userinfo)\n", "\(result)")
    }

    @Test func aUserinfoTimingOutIsReportedAtItsURL() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"userinfo_faults":["slow"],"userinfo_delay":3}"#)
        let result = try await run(fx.signedFlow() + ["--userinfo", "--timeout", "1"])
        #expect(result.exitCode == 3, "\(result)")
        let line = try #require(result.errorLine, "\(result)")
        #expect(line.hasPrefix("authcode: error: timed out: ") && line.hasSuffix(" (\(fx.issuer("signed"))/userinfo)"), "\(result)")
    }

    /// A signed userinfo answer whose keys cannot be fetched: the key set's
    /// URL, not userinfo's (the id_token is HS256, so only userinfo needs them).
    @Test func aSignedUserinfosKeySetIsReportedAtItsURL() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"id_token_alg":"HS256","userinfo_signed":true,"userinfo_alg":"RS256","jwks_fault":"huge"}"#)
        let result = try await run(fx.signedFlow(client: "demo-app") + ["--userinfo"], env: Fixture.demoSecretEnv)
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stderr == "authcode: error: could not fetch the key set: \(Self.tooLarge) (\(fx.issuer("signed"))/jwks)\n", "\(result)")
    }
}
