import Foundation
import Testing

/// authcode against Glewlwyd 2.7.5 (Debian; Fixtures/glewlwyd/README.md), a C
/// server whose login page is a JavaScript app over a JSON API: the flows here
/// log in with default flags through the Glewlwyd driver (Walk/Drivers/Glewlwyd),
/// which grants the scopes and continues with `g_continue`; one test shows the
/// `--step` recipe of the README still works. Glewlwyd signs with RS256, ES256 and
/// EdDSA (one instance each), sends RFC 9207 iss, and takes resource
/// indicators and authorization_details.
/// Serialized: one server, and the printed wall times measure authcode.
@Suite("Glewlwyd interop", .serialized)
struct GlewlwydInteropTests {
    /// Throws "Glewlwyd is not installed: run 'make glewlwyd' …" when it is missing: a failure, never a skip.
    private func server() async throws -> GlewlwydServer.Info {
        try await GlewlwydServer.interop.info()
    }

    private func timed(_ name: String, _ result: RunResult) {
        print("glewlwyd wall time: \(name): \(String(format: "%.3f", result.seconds)) s (exit \(result.exitCode))")
    }

    /// Default flags: discovery, the client, the user's --form values.
    private func flow(_ g: GlewlwydServer.Info, issuer: String = "rs256", client: String? = nil,
                      scope: String = "openid") -> [String] {
        ["--issuer", g.issuer(issuer), "--client-id", client ?? g.publicClient, "--scope", scope,
         "--redirect-uri", g.redirectURI] + g.loginFlags
    }

    /// The code flow with default flags on each instance: PKCE S256, a nonce,
    /// POST authorization request, discovery. The id_token is signed with the
    /// instance's algorithm and verified with the key set its jwks_uri
    /// publishes: `-v` names the algorithm and the kid.
    @Test(arguments: [("rs256", "RS256"), ("es256", "ES256"), ("eddsa", "EdDSA")])
    func publicClientCodeFlow(instance: String, alg: String) async throws {
        let g = try await server()
        let result = try await run(flow(g, issuer: instance) + ["-v"])
        timed("public client, \(instance)", result)
        let object = expectTokenJSON(result)
        let kid = try #require(jwtPart(object["id_token"] as? String, 0)["kid"] as? String)
        #expect(traceLines(result, "id_token:") == ["* id_token: signature \(alg) kid \(kid); iss; aud; azp; exp; iat; sub; nonce"], "\(result)")
        #expect(!result.stderr.contains("authcode: error"), "\(result)")
        #expect(object["token_type"] as? String == "bearer", "Glewlwyd writes it in lower case")
        #expect(result.stdout.hasPrefix("{\"token_type\":\"bearer\",\"access_token\":\""), "the body as received\n\(result)")
        let idToken = object["id_token"] as? String
        #expect(jwtPart(idToken, 0)["alg"] as? String == alg)
        let claims = jwtPart(idToken, 1)
        #expect(claims["iss"] as? String == g.issuer(instance))
        #expect(claims["aud"] as? String == g.publicClient)
        #expect((claims["nonce"] as? String)?.isEmpty == false, "authcode sends a nonce with openid; Glewlwyd requires one")
        #expect(claims["auth_time"] as? Int == 0, "no session cookie reaches the token endpoint, so Glewlwyd says 0")
        expectNoSecrets(in: result, extra: [g.password])
    }

    /// Without the driver (`--idp none`) Glewlwyd's login page is a script
    /// authcode cannot run: it says so and stops.
    @Test func withoutTheDriverTheLoginPageNeedsJavaScript() async throws {
        let g = try await server()
        let result = try await run(flow(g) + ["--idp", "none"])
        timed("--idp none", result)
        expectFailure(result, exit: 6, [])
        #expect(result.errorLine == "authcode: error: the login page needs JavaScript (no HTML form) (\(g.base)/login.html)",
                "\(result)")
        #expect(result.stderr.contains("--step 'POST URL {\"username\":…}'"), "the hint names --step\n\(result)")
        expectNoSecrets(in: result, extra: [g.password])
    }

    /// The README's recipe without the driver still works: `--step` logs in
    /// through the JSON API, `g_continue` skips the login page; a wrong
    /// password stops at the step.
    @Test func theStepRecipeStillWorks() async throws {
        let g = try await server()
        let steps = ["--issuer", g.issuer(), "--client-id", g.publicClient, "--scope", "openid",
                     "--redirect-uri", g.redirectURI, "--param", "g_continue=true"]
        let result = try await run(steps + ["--step", g.loginStep])
        timed("--step", result)
        #expect(expectTokenJSON(result)["id_token"] is String)
        #expect(!result.stderr.contains("glewlwyd login"), "no driver: the login page is never met\n\(result)")
        let wrong = "POST \(g.base)/api/auth/ {\"username\":\"\(g.username)\",\"password\":\"not-wonderland\"}"
        let refused = try await run(steps + ["--step", wrong])
        timed("--step, wrong password", refused)
        expectFailure(refused, exit: 6, [])
        #expect(refused.errorLine == "authcode: error: step 1 (POST) answered 401 (\(g.base)/api/auth/)", "\(refused)")
        expectNoSecrets(in: refused, extra: ["not-wonderland", g.password])
    }

    /// client_secret_basic (the default with a secret) and client_secret_post;
    /// a wrong secret is Glewlwyd's non-RFC `403 {"error":"unauthorized_client"}`.
    @Test func confidentialClient() async throws {
        let g = try await server()
        let secret = ["AUTHCODE_CLIENT_SECRET": g.confidentialSecret]
        let basic = try await run(flow(g, client: g.confidentialClient), env: secret)
        timed("confidential, client_secret_basic", basic)
        #expect(expectTokenJSON(basic)["id_token"] is String)
        let post = try await run(flow(g, client: g.confidentialClient) + ["--auth-method", "client_secret_post"], env: secret)
        timed("confidential, client_secret_post", post)
        expectTokenJSON(post)
        let wrong = try await run(flow(g, client: g.confidentialClient), env: ["AUTHCODE_CLIENT_SECRET": "not-the-secret"])
        timed("confidential, wrong secret", wrong)
        expectFailure(wrong, exit: 7, ["403", "unauthorized_client"])
        for result in [basic, post, wrong] {
            expectNoSecrets(in: result, extra: [g.password, g.confidentialSecret, "not-the-secret"])
        }
    }

    /// RFC 9207: Glewlwyd (oauth-as-iss-id) puts its issuer in the redirect.
    @Test func issInTheAuthorizationResponse() async throws {
        let g = try await server()
        let code = try await run(flow(g) + ["--print", "code", "--expect-iss", g.issuer()])
        timed("--print code --expect-iss", code)
        #expect(code.exitCode == 0, "\(code)")
        let object = try #require(jsonObject(code.stdout), "\(code)")
        #expect(object["iss"] as? String == g.issuer())
        #expect(object["redirect_uri"] as? String == g.redirectURI)
        let other = try await run(flow(g) + ["--expect-iss", g.issuer("es256")])
        expectFailure(other, exit: 5, ["iss", g.issuer()])
        #expect(other.stderr.contains("the code is not redeemed"), "\(other)")
    }

    /// Glewlwyd's form_post writes iss URL-encoded into the HTML value
    /// (`value="http%3A%2F%2F…"`): not its issuer, so authcode refuses it.
    @Test func formPostIssIsURLEncodedByGlewlwydAndRefused() async throws {
        let g = try await server()
        let result = try await run(flow(g) + ["--response-mode", "form_post"])
        timed("form_post", result)
        let encoded = g.issuer().addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
        expectFailure(result, exit: 5, ["iss mismatch", encoded, "not redeemed"])
    }

    /// RFC 8707 and RFC 9396 (--resource, --authorization-details): the
    /// resource becomes the access token's aud; the authorization_details
    /// come back in the answer.
    /// Both need the `api` scope granted and, for RAR, the user's consent to the type: the driver gives both, as the login page does.
    @Test func resourceAndAuthorizationDetails() async throws {
        let g = try await server()
        let scope = "openid \(g.resourceScope)"
        let details = "[{\"type\":\"\(g.rarType)\",\"locations\":[\"\(g.resource)\"],\"actions\":[\"initiate\"]}]"
        let result = try await run(flow(g, scope: scope) + ["--resource", g.resource, "--authorization-details", details])
        timed("resource + authorization_details", result)
        let object = expectTokenJSON(result)
        #expect(object["scope"] as? String == scope, "\(result)")
        let access = jwtPart(object["access_token"] as? String, 1)
        #expect(access["aud"] as? String == g.resource, "\(access)")
        let returned = (object["authorization_details"] as? [[String: Any]])?.first
        #expect(returned?["type"] as? String == g.rarType, "\(result)")
        #expect(returned?["actions"] as? [String] == ["initiate"])
        let unknown = try await run(flow(g, scope: scope) + ["--resource", "https://other.example/"])
        expectFailure(unknown, exit: 4, ["invalid_target"])
    }

    /// JARM on every instance, each mode Glewlwyd offers the code flow: the
    /// response JWT (no iat, exp an hour ahead) verified with the instance's
    /// key before the code is read; then `--print claims` and the userinfo
    /// endpoint, whose sub matches (it wants `Bearer` exactly).
    @Test(arguments: [("rs256", "RS256", "jwt"), ("es256", "ES256", "query.jwt"), ("eddsa", "EdDSA", "fragment.jwt"), ("rs256", "RS256", "form_post.jwt")])
    func jarmResponseIsVerified(instance: String, alg: String, mode: String) async throws {
        let g = try await server()
        let result = try await run(flow(g, issuer: instance) + ["--response-mode", mode, "--print", "userinfo", "-v"])
        timed("JARM \(mode), \(instance)", result)
        #expect(result.exitCode == 0, "\(result)")
        let jarm = traceLines(result, "JARM response:")
        #expect(jarm.count == 1 && jarm[0].hasPrefix("* JARM response: signature \(alg) kid ") && jarm[0].hasSuffix("; iss; aud; exp"), "\(result)")
        #expect(traceLines(result, "userinfo:") == ["* userinfo: sub matches the id_token's"], "\(result)")
        let userinfo = try #require(jsonObject(result.stdout), "\(result)")
        #expect((userinfo["sub"] as? String)?.isEmpty == false)
        expectNoSecrets(in: result, extra: [g.password])
    }

    /// `auth_time` is 0 in Glewlwyd's id_tokens (no session at the token
    /// endpoint): with max_age an honest verifier refuses it.
    @Test func maxAgeRefusesItsZeroAuthTime() async throws {
        let g = try await server()
        let result = try await run(flow(g) + ["--param", "max_age=3600"])
        timed("max_age", result)
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.errorLine == "authcode: error: the code was redeemed, but the token response was refused: id_token auth_time is older than max_age allows (beyond 60 s of clock skew) (\(g.issuer())/token)",
                "\(result)")
    }

    /// Glewlwyd's refresh answer has a new access token but no refresh_token and no id_token.
    @Test func refreshToken() async throws {
        let g = try await server()
        let first = expectTokenJSON(try await run(flow(g)))
        let refreshToken = try #require(first["refresh_token"] as? String)
        let result = try await run(["--issuer", g.issuer(), "--client-id", g.publicClient, "--refresh-token", "@-"],
                                   stdin: refreshToken + "\n")
        timed("--refresh-token", result)
        let object = expectTokenJSON(result)
        #expect(object["refresh_token"] == nil && object["id_token"] == nil, "\(result)")
        #expect(object["access_token"] as? String != first["access_token"] as? String)
        expectNoSecrets(in: result, extra: [refreshToken])
    }
}
