import Foundation
import Testing

/// `--fapi2` against the fixture's `fapi2` scenario (FAPI 2.0 Security
/// Profile: PAR required, S256 required, iss, private_key_jwt with aud =
/// the issuer, DPoP required with nonce challenges at PAR, token and the
/// resource, PS256 id_tokens), every signature checked by PyPI
/// `cryptography`; then the resource call through a real curl.
@Suite("Modern profile: FAPI 2.0")
struct FAPI2Tests {
    /// The whole profile end to end, for each key type the profile allows.
    @Test(arguments: [("rsa2048", "PS256"), ("p256", "ES256"), ("ed25519", "EdDSA")])
    func fullFlow(key name: String, alg: String) async throws {
        let fixture = try await Fixture.make("fapi2-\(name)")
        let key = try await ProfileKeys.shared.key(name)
        try fixture.configure(Fixture.proofsSentLater.merging(["client_jwks": try Fixture.clientJWKS([key])]) { $1 })
        let resource = fixture.issuer("fapi2") + "/resource"
        let result = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2", "--print", "header",
                                                                   "--dpop-for", "GET \(resource)"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let hits = try fixture.profileHits().filter { $0.hit.endpoint != "openid-configuration" }
        #expect(hits.map { "\($0.hit.endpoint) \($0.hit.status ?? 0)" } == ["par 400", "par 201", "authorize 302", "token 200", "jwks 200"],
                "a nonce challenge at PAR; the token request carries the nonce at once; the id_token's signature is verified with the published keys")
        let par = hits[1]
        #expect(par.clientAuthMethod == "private_key_jwt" && par.assertionHeader["alg"] as? String == alg)
        #expect(par.assertionClaims["aud"] as? String == fixture.issuer("fapi2"))
        #expect(par.hit.form["code_challenge_method"] == "S256" && par.hit.form["nonce"] != nil && par.hit.form["dpop_jkt"] != nil)
        #expect(hits[3].assertionHeader["alg"] as? String == alg && hits[3].proofClaims["nonce"] is String)
        let called = try curlWithHeaders(result.stdout, resource)
        #expect(called.status == 200, "\(called)\n\(result)")
        #expect(jsonObject(called.body)?["token_type"] as? String == "DPoP")
        expectNoSecrets(in: result, fixture: fixture)
    }

    /// The id_token the profile's flow got is PS256, and the code came with
    /// iss (read here; its signature is the verifier's to check).
    @Test func idTokenAndIss() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("p256")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key])])
        let code = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2", "--print", "code"])
        #expect(jsonObject(code.stdout)?["iss"] as? String == fixture.issuer("fapi2"), "\(code)")
        let token = expectTokenJSON(try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2"]))
        #expect(jwtPart(token["id_token"] as? String, 0)["alg"] as? String == "PS256")
        #expect(token["token_type"] as? String == "DPoP")
        // iss is required: an answer without it is exit 5, and the code is not redeemed.
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]), "authorization_iss": false])
        let missing = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2"])
        expectFailure(missing, exit: 5, ["no iss"])
        #expect(try fixture.profileHits(to: "token").count == 1)
    }

    /// FAPI 2.0 allows PS256, ES256 and EdDSA id_tokens only: an RS256 one,
    /// validly signed and advertised by the server, is exit 5 under
    /// `--fapi2` (the same token passes without it).
    @Test func rs256IDTokenIsRefusedUnderFAPI2() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("p256")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]), "id_token_alg": "RS256",
                               "id_token_algs_supported": ["RS256", "PS256", "ES256", "EdDSA"]])
        let result = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("authcode: error: the code was redeemed, but the token response was refused: id_token: the JWS alg RS256 is not allowed by --fapi2 (allowed: ES256, EdDSA, PS256) ("),
                "\(result)")
        #expect(result.stderr.hasSuffix("\nFAPI 2.0 servers sign id_tokens with PS256, ES256 or EdDSA; drop --fapi2 to accept this server's algorithm.\n"), "\(result)")
        let plain = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--dpop", "--par",
                                                                   "--auth-method", "private_key_jwt"])
        expectTokenJSON(plain)
    }

    /// A server that answers a Bearer token to a FAPI 2.0 client gave no
    /// sender-constrained token: exit 5.
    @Test func bearerTokenRefused() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("p256")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]), "token_type": "Bearer"])
        let result = try await run(fixture.profileFlow("fapi2") + ["--client-key", key.file("jwk"), "--fapi2"])
        expectFailure(result, exit: 5, ["the code was redeemed, but the token response was refused: the token is not DPoP-bound (token_type Bearer), but '--fapi2' needs a sender-constrained token"])
    }

    /// Every option that contradicts the profile is exit 2 before any
    /// request, naming both.
    @Test(arguments: [
        (["--pkce", "plain"], "'--fapi2' and '--pkce plain' contradict each other"),
        (["--pkce", "off"], "'--fapi2' and '--pkce off' contradict each other"),
        (["--auth-method", "client_secret_post"], "'--fapi2' and '--auth-method client_secret_post' contradict each other"),
        (["--auth-method", "client_secret_jwt"], "'--fapi2' and '--auth-method client_secret_jwt' contradict each other"),
        (["--auth-method", "none"], "'--fapi2' and '--auth-method none' contradict each other"),
        (["--client-secret", "s3cret-x"], "'--fapi2' and '--client-secret' (without '--auth-method', client_secret_basic) contradict each other"),
        (["--client-key-alg", "RS256"], "'--fapi2' and '--client-key-alg RS256' contradict each other"),
        (["--client-key-alg", "ES384"], "'--fapi2' and '--client-key-alg ES384' contradict each other"),
        (["--insecure"], "'--fapi2' and '--insecure' contradict each other"),
        (["--allow-http"], "'--fapi2' and '--allow-http' contradict each other"),
        (["--cache"], "'--cache' with '--fapi2' (which turns on DPoP) needs '--dpop-key <file>'"),
        (["--client-key", "p384"], "'--fapi2' and the key of '--client-key"),
    ])
    func contradictions(extra: [String], says: String) async throws {
        let fixture = try await Fixture.make()
        let keys = try await ProfileKeys.shared.keys()
        var arguments = fixture.profileFlow("fapi2") + ["--fapi2"]
        if extra.first == "--client-key" {
            arguments += ["--client-key", keys[extra[1]]?.file("jwk") ?? "missing"]
        } else {
            arguments += ["--client-key", keys["p256"]?.file("jwk") ?? "missing"] + extra
        }
        let result = try await run(arguments)
        expectFailure(result, exit: 2, [says])
        #expect(try fixture.hits().isEmpty, "no request at all")
    }
}
