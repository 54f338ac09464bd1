import Foundation
import Testing

/// JARM (`--response-mode jwt` and its forms) against the fixture's `signed`
/// scenario: the `response` JWT is verified and its iss, aud and exp
/// checked before its code is read; any failure is exit 5 and the code is
/// never redeemed (the fixture's `codes_redeemed` stays 0, no token request).
@Suite("Verification: JARM responses")
struct JARMTests {
    @Test(arguments: ["jwt", "query.jwt", "fragment.jwt", "form_post.jwt"])
    func everyModeVerifies(mode: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.signedFlow() + ["--response-mode", mode, "-v"])
        expectTokenJSON(result)
        #expect(traceLines(result, "JARM response:") == ["* JARM response: signature RS256 kid k1; iss; aud; exp"], "\(result)")
        let authorize = try #require(try fx.hits(to: "authorize").first)
        #expect(authorize.form["response_mode"] == mode)
        #expect(try fx.stats()["codes_redeemed"] == 1)
        // The response JWT carries the code: never shown in the trace.
        #expect(!result.stderr.contains("response=ey"), "\(result)")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test(arguments: ["ES256", "EdDSA", "PS384"])
    func otherAlgorithms(alg: String) async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"jarm_alg":"\#(alg)"}"#)
        let result = try await run(fx.signedFlow() + ["--response-mode", "query.jwt", "-v"])
        expectTokenJSON(result)
        let kid = alg == "ES256" ? "p256-1" : alg == "EdDSA" ? "ed25519-1" : "k1"
        #expect(traceLines(result, "JARM response:") == ["* JARM response: signature \(alg) kid \(kid); iss; aud; exp"], "\(result)")
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let config: String
        let message: String
        var hint: String?
        var exit: Int32 = 5
        var mode = "jwt"
        var testDescription: String { config + " " + mode }
    }

    static let refused: [Refused] = [
        Refused(config: #"{"jarm_faults":["iss"]}"#, message: "JARM response iss is not the expected issuer '{issuer}'; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["iss-missing"]}"#, message: "JARM response has no iss; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["aud"]}"#, message: "JARM response aud does not contain this client 'public-app'; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["aud-missing"]}"#, message: "JARM response has no aud; the code is not redeemed", mode: "fragment.jwt"),
        Refused(config: #"{"jarm_faults":["exp-past"]}"#, message: "JARM response has expired (exp is past, beyond 60 s of clock skew); the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["exp-missing"]}"#, message: "JARM response has no exp; the code is not redeemed", mode: "form_post.jwt"),
        Refused(config: #"{"jarm_faults":["exp-string"]}"#, message: "JARM response exp is not a finite JSON number; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["signature"]}"#, message: "JARM response: the JWS signature does not verify; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["sig-other-key"]}"#, message: "JARM response: the JWS signature does not verify; the code is not redeemed",
                mode: "form_post.jwt"),
        Refused(config: #"{"jarm_faults":["signature-empty"]}"#, message: "JARM response: the JWS signature does not verify; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["alg-none"]}"#, message: "JARM response: the JWS is unsigned (alg none); the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["header-jku"]}"#, message: "JARM response: the JWS header carries jku, which is refused; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["header-jwk"]}"#, message: "JARM response: the JWS header carries jwk, which is refused; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["kid-unknown"]}"#, message: "JARM response: no key of the key set has the JWS's kid; the code is not redeemed"),
        Refused(config: #"{"jarm_faults":["payload-not-json"]}"#, message: "the JARM response's payload is not a JSON object; the code is not redeemed"),
        // The state inside, once the JWT passed, is checked like any answer's.
        Refused(config: #"{"jarm_faults":["state-wrong"]}"#,
                message: "state mismatch: the authorization response is not for this request; the code is not redeemed"),
        Refused(config: #"{"jarm_alg":"ES256","id_token_algs_supported":["RS256"]}"#,
                message: "JARM response: the JWS alg ES256 is not accepted (accepted: RS256); the code is not redeemed",
                hint: "The accepted algorithms come from --id-token-alg, else the server's metadata."),
        // A server answering in plain query mode to a JARM request.
        Refused(config: #"{"metadata":{}}"#,
                message: "the authorization response has no JARM 'response' parameter (--response-mode jwt); the code is not redeemed", mode: "PLAIN"),
    ]

    @Test(arguments: refused)
    func refuses(_ c: Refused) async throws {
        let fx = try await Fixture.make()
        try fx.configure(c.config)
        // PLAIN: the request asks for jwt, the server answers in query mode (a forged or downgraded answer).
        let mode = c.mode == "PLAIN" ? "jwt" : c.mode
        var args = fx.signedFlow() + ["--response-mode", mode]
        if c.mode == "PLAIN" { args += ["--method", "GET", "--authorize-url", fx.issuer("signed") + "/authorize?response_mode=query"] }
        let result = try await run(args)
        #expect(result.exitCode == c.exit, "\(result)")
        #expect(result.stdout.isEmpty)
        let message = c.message.replacingOccurrences(of: "{issuer}", with: fx.issuer("signed"))
        // Where the answer was read: the redirect_uri, or the form_post page.
        let place = mode == "form_post.jwt" ? fx.issuer("signed") + "/authorize" : Fixture.redirect
        #expect(result.stderr == "authcode: error: \(message) (\(place))\n" + (c.hint.map { $0 + "\n" } ?? ""), "\(result)")
        let stats = try fx.stats()
        let tokenRequests = try fx.hits(to: "token")
        #expect(stats["codes_redeemed"] == 0 && tokenRequests.isEmpty, "the code is never redeemed: \(stats)")
        #expect(try !fx.hits().contains { $0.path.hasSuffix("/attacker-jwks") })
        expectNoSecrets(in: result, fixture: fx)
    }

    /// A JARM answer crosses the front channel: it always needs keys, and
    /// without them the run stops before the authorization request.
    @Test func withoutKeysNothingIsSent() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.endpoints("signed") + ["--client-id", "public-app", "--redirect-uri", Fixture.redirect,
                                                             "--scope", "openid", "--response-mode", "jwt"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.stderr == "authcode: error: --response-mode jwt needs keys to verify the answer with, and none are known\n"
            + "Give --issuer (its jwks_uri) or --jwks.\n", "\(result)")
        #expect(try fx.hits().isEmpty, "no request at all")
        // With --jwks and --expect-iss it works by hand too.
        let keys = try TempFile(try fx.keySet())
        let pinned = try await run(fx.endpoints("signed") + ["--client-id", "public-app", "--redirect-uri", Fixture.redirect,
                                                             "--scope", "openid", "--response-mode", "jwt", "--jwks", keys.path,
                                                             "--expect-iss", fx.issuer("signed")])
        expectTokenJSON(pinned)
    }

    /// The authorization endpoint's error, signed, is exit 4 with its text
    /// once the JWT and its state passed.
    @Test func signedErrorIsExit4() async throws {
        let fx = try await Fixture.make()
        try fx.configure(#"{"request_object_required":true}"#)
        let denied = try await run(fx.signedFlow() + ["--response-mode", "jwt"])
        expectFailure(denied, exit: 4, [])
        #expect(denied.errorLine == "authcode: error: the authorization server answered error=invalid_request: a request object is required (\(Fixture.redirect))",
                "\(denied)")
        #expect(try fx.stats()["codes_redeemed"] == 0)
    }
}
