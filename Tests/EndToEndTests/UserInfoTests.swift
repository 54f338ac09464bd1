import Foundation
import Testing

/// `--userinfo` and `--print userinfo` against the fixture's `signed`
/// scenario (OIDC Core §5.3): the access token as `Authorization: Bearer`,
/// the answer's sub checked against the id_token's, a signed answer
/// verified, and the body never quoted in an error line.
@Suite("Verification: userinfo")
struct UserInfoTests {
    static let alice = #"{"sub":"alice","name":"Alice","preferred_username":"alice","email":"alice@example.com","email_verified":true}"#

    @Test func bearerTokenAndSubjectMatch() async throws {
        let fx = try await Fixture.make()
        // The server writes token_type in lower case; Bearer goes out in its registered spelling.
        try fx.configure(#"{"token_type":"bearer"}"#)
        let result = try await run(fx.signedFlow() + ["--userinfo", "-v"])
        let token = expectTokenJSON(result)
        #expect(traceLines(result, "userinfo:") == ["* userinfo: sub matches the id_token's"], "\(result)")
        let hit = try #require(try fx.hits(to: "userinfo").first)
        #expect(hit.method == "GET" && hit.headers["authorization"] == "Bearer \(token["access_token"] as? String ?? "?")", "\(hit)")
        #expect(hit.headers["cookie"] == nil)
        #expect(try fx.stats()["userinfo_requests"] == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    /// A DPoP-bound token goes to userinfo as `Authorization: DPoP` with a
    /// proof for that request (`htm` GET, `htu` the endpoint, `ath` the
    /// token's hash), retried once with the server's nonce (RFC 9449 §7.1,
    /// §9); the fixture checks the proof with PyPI `cryptography`.
    @Test func dpopBoundTokenCarriesAProof() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"dpop_nonce":["userinfo"]}"#)
        let result = try await run(fx.signedFlow() + ["--dpop", "--userinfo", "-v"])
        let token = expectTokenJSON(result)
        #expect(token["token_type"] as? String == "DPoP", "\(result)")
        #expect(traceLines(result, "userinfo:") == ["* userinfo: sub matches the id_token's"], "\(result)")
        let hits = try fx.hits(to: "userinfo")
        #expect(hits.map(\.status) == [401, 200], "a nonce challenge, then the proof with the nonce: \(hits.map(\.status))")
        let last = try #require(hits.last)
        #expect(last.headers["authorization"] == "DPoP \(token["access_token"] as? String ?? "?")", "\(last)")
        #expect(last.headers["dpop"] != nil && last.headers["dpop"] != hits[0].headers["dpop"], "a fresh proof for the retry")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func printUserinfo() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.signedFlow(scope: "openid profile email") + ["--print", "userinfo"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == Self.alice + "\n", "the answer as received, one line\n\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: [("RS256", "k1"), ("ES384", "p384-1"), ("EdDSA", "ed25519-1")])
    func signedAnswerIsVerified(alg: String, kid: String) async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"userinfo_signed":true,"userinfo_alg":"\#(alg)"}"#)
        let result = try await run(fx.signedFlow() + ["--print", "userinfo", "-v"])
        #expect(result.exitCode == 0, "\(result)")
        let claims = try #require(jsonObject(result.stdout), "\(result)")
        #expect(claims["sub"] as? String == "alice" && claims["iss"] as? String == fx.issuer("signed") && claims["aud"] as? String == "public-app")
        #expect(traceLines(result, "userinfo:") == ["* userinfo: signature \(alg) kid \(kid); sub matches the id_token's"], "\(result)")
        #expect(try fx.stats()["jwks_fetches"] == 1, "the id_token's key set serves both")
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let config: String
        let message: String
        let exit: Int32
        var testDescription: String { config }
    }

    static let refused: [Refused] = [
        Refused(config: #"{"userinfo_faults":["sub-mismatch"]}"#, message: "the userinfo sub does not match the id_token's sub (OIDC Core §5.3.2)", exit: 5),
        Refused(config: #"{"userinfo_faults":["sub-missing"]}"#, message: "the userinfo answer has no sub (OIDC Core §5.3.2)", exit: 5),
        Refused(config: #"{"userinfo_faults":["not-json"]}"#, message: "the userinfo answer is not a JSON object (application/json, 34 bytes)", exit: 8),
        Refused(config: #"{"userinfo_faults":["500"]}"#, message: "the userinfo endpoint refused: 500 (text/html, 56 bytes)", exit: 7),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["sub-mismatch"]}"#,
                message: "the userinfo sub does not match the id_token's sub (OIDC Core §5.3.2)", exit: 5),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["signature"]}"#, message: "signed userinfo: the JWS signature does not verify", exit: 5),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["alg-none"]}"#, message: "signed userinfo: the JWS is unsigned (alg none)", exit: 5),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["header-jwk"]}"#,
                message: "signed userinfo: the JWS header carries jwk, which is refused", exit: 5),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["iss"]}"#, message: "signed userinfo iss is not the expected issuer '{issuer}'", exit: 5),
        Refused(config: #"{"userinfo_signed":true,"userinfo_faults":["aud"]}"#,
                message: "signed userinfo aud does not contain this client 'public-app'", exit: 5),
    ]

    @Test(arguments: refused)
    func refuses(_ c: Refused) async throws {
        let fx = try await Fixture.make()
        try fx.configure(c.config)
        let result = try await run(fx.signedFlow() + ["--print", "userinfo"])
        #expect(result.exitCode == c.exit, "\(result)")
        #expect(result.stdout.isEmpty)
        let message = c.message.replacingOccurrences(of: "{issuer}", with: fx.issuer("signed"))
        #expect(result.stderr == "authcode: error: \(message) (\(fx.issuer("signed"))/userinfo)\n", "\(result)")
        // The body holds personal data (and may echo the token): never quoted.
        for text in ["Internal Server Error", "userinfo</body>", "mallory", "alice@example.com", "evil.example"] {
            #expect(!result.stderr.contains(text), "\(result)")
        }
        #expect(try fx.stats()["userinfo_requests"] == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    /// On a cache hit the userinfo endpoint is still asked, with the cached token.
    @Test func cacheHitStillAsksTheEndpoint() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let first = try await run(fx.signedFlow() + cache.flags + ["--print", "userinfo"])
        #expect(first.stdout == Self.alice + "\n", "\(first)")
        let second = try await run(fx.signedFlow() + cache.flags + ["--print", "userinfo", "-v"])
        #expect(second.stdout == Self.alice + "\n", "\(second)")
        #expect(second.stderr.contains("* token from the cache"), "\(second)")
        let stats = try fx.stats()
        #expect(stats["codes_redeemed"] == 1 && stats["userinfo_requests"] == 2, "\(stats)")
        let bearers = try fx.hits(to: "userinfo").map { $0.headers["authorization"] ?? "" }
        #expect(bearers.count == 2 && bearers[0] == bearers[1], "the cached access token both times")
    }

    @Test(arguments: [
        (["--userinfo", "--print", "code"], "'--userinfo' asks the userinfo endpoint after the token; '--print code' stops before the token request"),
        (["--print", "userinfo", "--scope", "profile"], "'--userinfo' needs 'openid' in '--scope <scopes>': its sub is checked against the id_token's (OIDC Core §5.3.2)"),
    ])
    func usage(extra: [String], message: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.signedFlow() + extra)
        expectFailure(result, exit: 2, [])
        #expect(result.errorLine == "authcode: error: \(message)", "\(result)")
        #expect(try fx.hits().isEmpty)
    }

    @Test func needsTheIssuersMetadata() async throws {
        let fx = try await Fixture.make()
        let byHand = try await run(fx.endpoints("signed") + ["--client-id", "public-app", "--redirect-uri", Fixture.redirect, "--scope", "openid", "--userinfo"])
        #expect(byHand.errorLine == "authcode: error: '--userinfo' needs '--issuer <url>': the userinfo endpoint comes from the issuer's metadata", "\(byHand)")
        try fx.configure(#"{"metadata":{"userinfo_endpoint":null}}"#)
        let none = try await run(fx.signedFlow() + ["--userinfo"])
        expectFailure(none, exit: 8, [])
        #expect(none.errorLine == "authcode: error: the discovery document names no userinfo_endpoint (--userinfo) (\(fx.issuer("signed")))", "\(none)")
    }
}
