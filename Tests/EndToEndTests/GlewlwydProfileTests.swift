import Foundation
import Testing

/// The modern client profile against Glewlwyd 2.7.5 (Fixtures/glewlwyd/README.md,
/// "What authcode needs to do"): private_key_jwt with the assertion's aud
/// the receiving endpoint's URL, PAR, request objects, resource indicators,
/// RAR and DPoP (draft 04 era: no nonces, iat never ahead, htu exact).
/// Glewlwyd verifies every signature itself: a token is its verdict.
/// The login is the Glewlwyd driver's (Walk/Drivers/Glewlwyd): with PAR it
/// continues the pushed request_uri with `g_continue` in front.
@Suite("Glewlwyd interop: modern client profile", .serialized)
struct GlewlwydProfileTests {
    private func timed(_ name: String, _ result: RunResult) {
        print("glewlwyd wall time: \(name): \(String(format: "%.3f", result.seconds)) s (exit \(result.exitCode))")
    }

    /// The pkjwt client with one of its keys; the Glewlwyd driver logs in, grants `openid api` and continues.
    private func flow(_ g: GlewlwydServer.Info, key name: String = "ec") -> [String] {
        let key = g.clientKeys[name]
        let scope = "openid \(g.resourceScope)"
        return ["--issuer", g.issuer(), "--client-id", g.privateKeyJWTClient, "--scope", scope, "--redirect-uri", g.redirectURI,
                "--client-key", key?.pemPath ?? "missing", "--client-key-id", key?.kid ?? "missing"] + g.loginFlags
    }

    /// private_key_jwt + PAR + request object + resource, with each client
    /// key: the assertion's aud is each endpoint's URL (`--assertion-aud
    /// endpoint`), the access token is for the resource.
    @Test(arguments: [("rsa", "RS256"), ("ec", "ES256"), ("ed25519", "EdDSA")])
    func pushedSignedRequestWithResource(key name: String, alg: String) async throws {
        let g = try await GlewlwydServer.profile.info()
        let result = try await run(flow(g, key: name) + ["--assertion-aud", "endpoint", "--par", "--request-object", "--resource", g.resource, "-v"])
        timed("private_key_jwt \(alg) + PAR + request object + resource", result)
        let object = expectTokenJSON(result)
        #expect(object["token_type"] as? String == "bearer")
        #expect(jwtPart(object["access_token"] as? String, 1)["aud"] as? String == g.resource)
        #expect(jwtPart(object["id_token"] as? String, 1)["aud"] as? String == g.privateKeyJWTClient)
        // Glewlwyd copies the pushed assertion into the redirect: it is masked there too.
        #expect(result.stderr.contains("&client_assertion=[redacted]&code=[redacted]"), "\(result)")
        #expect(!result.stderr.contains("client_assertion=ey") && !result.stderr.contains("request=ey"), "\(result)")
        expectNoSecrets(in: result, extra: [g.password])
    }

    /// What Glewlwyd refuses: an assertion naming the issuer (the default):
    /// 401 with an empty body at PAR, 403 at the token endpoint — both exit 7.
    @Test func issuerAudienceIsRefused() async throws {
        let g = try await GlewlwydServer.profile.info()
        let pushed = try await run(flow(g) + ["--par"])
        timed("private_key_jwt aud = issuer at PAR", pushed)
        expectFailure(pushed, exit: 7, [])
        #expect(pushed.errorLine == "authcode: error: the pushed authorization request endpoint answered 401 (\(g.issuer())/par)", "\(pushed)")
        let token = try await run(flow(g))
        expectFailure(token, exit: 7, [])
        #expect(token.errorLine == "authcode: error: the token endpoint answered 403 (\(g.issuer())/token)", "\(token)")
    }

    /// DPoP with a kept key through PAR (the code is bound to it): the
    /// token is `DPoP` with cnf.jkt the key's thumbprint (computed by
    /// Python); a refresh by the same key is bound again, another key is
    /// refused. RAR rides along through PAR once the user consented to the type.
    @Test func dpopAndAuthorizationDetails() async throws {
        let g = try await GlewlwydServer.profile.info()
        let dpopKey = try #require(g.clientKeys["rsa"])
        let details = "[{\"type\":\"\(g.rarType)\",\"locations\":[\"\(g.resource)\"],\"actions\":[\"initiate\"]}]"
        let first = try await run(flow(g, key: "ed25519") + [
            "--assertion-aud", "endpoint", "--par", "--dpop-key", dpopKey.pemPath, "--authorization-details", details,
        ])
        timed("private_key_jwt + PAR + DPoP + RAR", first)
        let object = expectTokenJSON(first)
        #expect(object["token_type"] as? String == "DPoP")
        let jkt = try pythonThumbprint(String(contentsOfFile: dpopKey.jwkPath, encoding: .utf8))
        #expect((jwtPart(object["access_token"] as? String, 1)["cnf"] as? [String: Any])?["jkt"] as? String == jkt)
        #expect((object["authorization_details"] as? [[String: Any]])?.first?["type"] as? String == g.rarType)
        let refreshToken = try #require(object["refresh_token"] as? String)
        let refresh = ["--issuer", g.issuer(), "--client-id", g.privateKeyJWTClient, "--client-key", g.clientKeys["ec"]?.pemPath ?? "",
                       "--client-key-id", g.clientKeys["ec"]?.kid ?? "", "--assertion-aud", "endpoint", "--refresh-token", "@-"]
        let again = try await run(refresh + ["--dpop-key", dpopKey.pemPath], stdin: refreshToken + "\n")
        timed("refresh with DPoP", again)
        #expect(expectTokenJSON(again)["token_type"] as? String == "DPoP")
        let other = try await run(refresh + ["--dpop-key", g.clientKeys["ed25519"]?.pemPath ?? ""], stdin: refreshToken + "\n")
        expectFailure(other, exit: 7, ["403", "invalid_dpop_proof"])
        for result in [first, again, other] { expectNoSecrets(in: result, extra: [g.password, refreshToken]) }
    }

    /// `--call` at Glewlwyd's own userinfo endpoint with a DPoP-bound
    /// token: Glewlwyd checks the proof (its `ath`, `htm`, `htu`) and the
    /// binding itself; the answer's body is stdout.
    @Test func callUserinfoWithDPoPBoundToken() async throws {
        let g = try await GlewlwydServer.profile.info()
        let metadata = try #require(jsonObject(String(decoding: try httpGet(g.issuer() + "/.well-known/openid-configuration"), as: UTF8.self)))
        let userinfo = try #require(metadata["userinfo_endpoint"] as? String)
        let dpopKey = try #require(g.clientKeys["rsa"])
        let result = try await run(flow(g, key: "ed25519") + ["--assertion-aud", "endpoint", "--par", "--dpop-key", dpopKey.pemPath,
                                                                "--call", "GET \(userinfo)", "-v"])
        timed("private_key_jwt + PAR + DPoP + --call userinfo", result)
        // The -v trace is long: on failure, its requests, statuses and error lines.
        let gist = result.stderr.split(separator: "\n").filter { $0.hasPrefix("> POST") || $0.hasPrefix("> GET") || $0.hasPrefix("< ") || $0.hasPrefix("authcode:") || $0.hasPrefix("* the") }
            .joined(separator: "\n")
        #expect(result.exitCode == 0, "\(gist)")
        let claims = try #require(jsonObject(result.stdout), "\(gist)")
        #expect(claims["sub"] is String && (claims["sub"] as? String)?.isEmpty == false, "\(result)")
        #expect(result.stderr.contains("call: GET \(userinfo)"), "the trace names the call\n\(result)")
        expectNoSecrets(in: result, extra: [g.password])
    }
}
