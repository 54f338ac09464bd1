import Foundation
import Testing

/// private_key_jwt and client_secret_jwt (RFC 7523, OIDC Core §9) against
/// the fixture's `signed` scenario, which verifies every assertion with PyPI
/// `cryptography` against the keys jose_tool.py made (never authcode's own
/// verifier): a token means the signature, iss/sub, aud, exp and jti
/// passed; the hits say what was sent.
@Suite("Modern profile: client assertions")
struct ClientAssertionTests {
    static let everyKey = ["rsa2048", "rsa3072", "p256", "p384", "p521", "ed25519"]

    func registered(_ fixture: Fixture, _ extra: [String: Any] = [:]) async throws {
        var keys: [ProfileKeys.Key] = []
        for name in Self.everyKey { keys.append(try await ProfileKeys.shared.key(name)) }
        try fixture.configure(["client_jwks": try Fixture.clientJWKS(keys)].merging(extra) { $1 })
    }

    /// Every key type from every file format, pushed (PAR) then redeemed:
    /// each endpoint got its own assertion, signed with the right algorithm
    /// and kid, iss = sub = client_id, aud = the issuer, 60 s of life.
    @Test(arguments: [
        ("rsa2048", "pkcs8", nil, "RS256"), ("rsa2048", "traditional", "PS256", "PS256"), ("rsa3072", "jwk", "PS512", "PS512"),
        ("p256", "traditional", nil, "ES256"), ("p384", "jwk", nil, "ES384"), ("p521", "pkcs8", nil, "ES512"),
        ("ed25519", "pkcs8", nil, "EdDSA"), ("ed25519", "jwk", nil, "EdDSA"),
    ] as [(String, String, String?, String)])
    func privateKeyJWT(key name: String, format: String, alg: String?, expected: String) async throws {
        let fixture = try await Fixture.make("pkjwt-\(name)-\(format)")
        try await registered(fixture)
        let key = try await ProfileKeys.shared.key(name)
        // A PEM key has no kid: --client-key-id names the registered one.
        let kid = format == "jwk" ? [] : ["--client-key-id", name]
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file(format), "--par"] + kid + (alg.map { ["--client-key-alg", $0] } ?? []))
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
        let hits = try fixture.profileHits().filter { ["par", "token"].contains($0.hit.endpoint) }
        #expect(hits.map(\.hit.endpoint) == ["par", "token"])
        for hit in hits {
            #expect(hit.clientAuthMethod == "private_key_jwt", "\(hit.decoded)")
            #expect(hit.assertionHeader["alg"] as? String == expected)
            #expect(hit.assertionHeader["kid"] as? String == name)
            let claims = hit.assertionClaims
            #expect(claims["iss"] as? String == "demo-app" && claims["sub"] as? String == "demo-app")
            #expect(claims["aud"] as? String == fixture.issuer("signed"), "the issuer by default (draft-ietf-oauth-rfc7523bis)")
            #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 60)
            #expect(hit.hit.form["client_id"] == "demo-app", "client_id beside the assertion")
        }
        #expect(Set(hits.map { $0.assertionClaims["jti"] as? String ?? "" }).count == 2, "a fresh jti per request")
    }

    /// --assertion-aud endpoint: the URL of the endpoint receiving each
    /// assertion (what Glewlwyd wants); the default (the issuer) is refused
    /// by a server that wants only that, at PAR already: exit 4.
    @Test func audienceIssuerOrEndpoint() async throws {
        let fixture = try await Fixture.make()
        try await registered(fixture, ["assertion_aud": ["endpoint"]])
        let key = try await ProfileKeys.shared.key("p256")
        let base = fixture.profileFlow() + ["--client-key", key.file("jwk"), "--par"]
        let refused = try await run(base)
        expectFailure(refused, exit: 4, [])
        #expect(refused.errorLine == "authcode: error: the pushed authorization request endpoint refused: 401 error=invalid_client: "
                + "client_assertion aud is not accepted here (accepted: \(fixture.issuer("signed"))/par) (\(fixture.issuer("signed"))/par)", "\(refused)")
        #expect(try fixture.profileHits(to: "authorize").isEmpty && fixture.profileHits(to: "token").isEmpty)
        let endpoint = try await run(base + ["--assertion-aud", "endpoint"])
        expectTokenJSON(endpoint)
        let audiences = try fixture.profileHits().filter { $0.hit.status == 201 || $0.hit.endpoint == "token" }.map { $0.assertionClaims["aud"] as? String }
        #expect(audiences == [fixture.issuer("signed") + "/par", fixture.issuer("signed") + "/token"])
        // A literal audience is sent as given, at every endpoint.
        try await registered(fixture, ["assertion_aud": ["token_endpoint"]])
        expectTokenJSON(try await run(base + ["--assertion-aud", fixture.issuer("signed") + "/token"]))
    }

    /// Without --client-key-id or a kid in the file, the header names the
    /// key by its RFC 7638 thumbprint: the fixture finds it registered
    /// under the thumbprint Python computed.
    @Test func kidIsTheThumbprintByDefault() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("p256")
        let thumbprint = try pythonThumbprint(key.publicJWK)
        var jwks = try Fixture.clientJWKS([key], withKids: false)
        jwks["keys"] = (jwks["keys"] as? [[String: Any]] ?? []).map { $0.merging(["kid": thumbprint]) { $1 } }
        try fixture.configure(["client_jwks": jwks])
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("pkcs8")])
        expectTokenJSON(result)
        let token = try #require(try fixture.profileHits(to: "token").first)
        #expect(token.assertionHeader["kid"] as? String == thumbprint)
    }

    /// client_secret_jwt: HS256 keyed with the client secret; a wrong secret
    /// does not verify (exit 7).
    @Test func clientSecretJWT() async throws {
        let fixture = try await Fixture.make()
        let flow = fixture.profileFlow() + ["--auth-method", "client_secret_jwt"]
        let result = try await run(flow, env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let token = try #require(try fixture.profileHits(to: "token").first)
        #expect(token.clientAuthMethod == "client_secret_jwt" && token.assertionHeader["alg"] as? String == "HS256")
        #expect(token.assertionHeader["kid"] == nil)
        let wrong = try await run(flow, env: ["AUTHCODE_CLIENT_SECRET": "not-demo-secret"])
        expectFailure(wrong, exit: 7, ["401", "invalid_client", "signature does not verify"])
        expectNoSecrets(in: wrong, fixture: fixture, extra: ["not-demo-secret"])
    }

    /// A private key others can read works, with a warning that names the
    /// file and the fix (as ssh would refuse it).
    @Test func groupReadableKeyWarns() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("ed25519")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key])])
        let open = try TempFile(String(contentsOfFile: key.file("jwk"), encoding: .utf8))
        chmod(open.path, 0o644)
        let result = try await run(fixture.profileFlow() + ["--client-key", open.path])
        expectTokenJSON(result)
        #expect(result.stderr == "authcode: warning: '\(open.path)' (--client-key) holds a private key that group or others can read; chmod 600 '\(open.path)'\n")
        let quiet = try await run(fixture.profileFlow() + ["--client-key", open.path, "-q"])
        #expect(quiet.exitCode == 0 && quiet.stderr.isEmpty)
    }

    /// Assertions, request objects, DPoP proofs and the private key never
    /// reach stderr, even with -v, even where a server copies them around.
    @Test func credentialsNeverInTheTrace() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("rsa2048")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]), "dpop_nonce": ["par"]])
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk"), "--par", "--request-object", "--dpop", "-v"])
        expectTokenJSON(result)
        let hits = try fixture.profileHits()
        var sent: [String] = []
        for hit in hits {
            sent += ["client_assertion", "request"].compactMap { hit.hit.form[$0] }
            if let proof = hit.hit.headers["dpop"] { sent.append(proof) }
        }
        #expect(sent.count >= 6, "two PAR attempts (assertion, request object, proof each) and the token request")
        let privateJWK = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: key.file("jwk")))) as? [String: String] ?? [:]
        expectNoSecrets(in: result, fixture: fixture, extra: sent + ["d", "p", "q", "dp", "dq", "qi"].compactMap { privateJWK[$0] })
        #expect(result.stderr.contains("client_assertion=[redacted]") && result.stderr.contains("> DPoP: [redacted]")
                && result.stderr.contains("request=[redacted]"), "\(result)")
    }
}
