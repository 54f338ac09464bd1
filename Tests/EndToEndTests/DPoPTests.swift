import Foundation
import Testing

/// DPoP (RFC 9449) against the fixture's `signed` scenario, which checks
/// every proof with PyPI `cryptography` (signature, typ, jwk, htm, htu,
/// iat, jti, ath, nonce) and binds tokens to the proof key; the resource
/// call goes through a real `curl -H @-`.
@Suite("Modern profile: DPoP")
struct DPoPTests {
    static var resourceOnlyBound: [String: Any] { Fixture.proofsSentLater.merging(["resource_require_dpop": true]) { $1 } }

    /// A nonce challenge at an endpoint is answered once with a new proof
    /// and a new assertion; a nonce learnt at PAR serves the token request.
    @Test(arguments: [(["par", "token"], ["par": [400, 201], "token": [200]]), (["token"], ["par": [201], "token": [400, 200]])])
    func nonceChallenges(endpoints: [String], statuses: [String: [Int]]) async throws {
        let fixture = try await Fixture.make("nonce-\(endpoints.joined(separator: "-"))")
        let key = try await ProfileKeys.shared.key("p256")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]), "dpop_nonce": endpoints])
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk"), "--par", "--dpop"])
        let object = expectTokenJSON(result)
        #expect(object["token_type"] as? String == "DPoP")
        let hits = try fixture.profileHits().filter { ["par", "token"].contains($0.hit.endpoint) }
        for endpoint in ["par", "token"] {
            let attempts = hits.filter { $0.hit.endpoint == endpoint }
            #expect(attempts.map { $0.hit.status ?? 0 } == statuses[endpoint], "\(endpoint): \(attempts.map(\.hit))")
            #expect(Set(attempts.map { $0.hit.form["client_assertion"] ?? "" }).count == attempts.count, "a new assertion for each attempt")
        }
        // Every proof: its own jti, the public key only, htm/htu of its request, iat not ahead.
        let proofs = hits.map { ($0.hit, $0.proofHeader, $0.proofClaims) }
        #expect(Set(proofs.map { $0.2["jti"] as? String ?? "" }).count == proofs.count)
        let now = Int(Date().timeIntervalSince1970)
        for (hit, header, claims) in proofs {
            #expect(header["typ"] as? String == "dpop+jwt" && header["alg"] as? String == "ES256")
            #expect((header["jwk"] as? [String: Any])?["d"] == nil && (header["jwk"] as? [String: Any])?["kty"] as? String == "EC")
            #expect(claims["htm"] as? String == "POST" && claims["htu"] as? String == fixture.issuer("signed") + "/" + hit.endpoint)
            #expect((claims["iat"] as? Int).map { $0 <= now && $0 > now - 30 } == true)
        }
        let retried = hits.filter { $0.hit.status == 400 }
        #expect(retried.count == 1 && retried[0].proofClaims["nonce"] == nil)
        #expect(hits.last?.proofClaims["nonce"] is String, "the nonce the server gave")
        let par = try #require(hits.first { $0.hit.status == 201 })
        #expect(par.hit.form["dpop_jkt"] == par.decoded["dpop_jkt"] as? String && par.hit.form["dpop_jkt"] == (par.decoded["dpop"] as? [String: Any])?["jkt"] as? String,
                "PAR sends dpop_jkt, the thumbprint of the proof key")
    }

    /// The README's recipe: `--print header --dpop-for 'GET <resource>'`
    /// into `curl -H @-`; the Authorization line alone is refused there.
    @Test func resourceCallThroughCurl() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(Self.resourceOnlyBound.merging(["token_type": "dpop"]) { $1 })
        let resource = fixture.issuer("signed") + "/resource"
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "--print", "header", "--dpop-for", "GET \(resource)?page=2"])
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("Authorization: DPoP at-") && lines[1].hasPrefix("DPoP: ey"),
                "DPoP in its registered spelling though the server wrote dpop\n\(result)")
        let proof = jwtPart(String(lines[1].dropFirst("DPoP: ".count)), 1)
        #expect(proof["htm"] as? String == "GET" && proof["htu"] as? String == resource && proof["ath"] is String)
        let called = try curlWithHeaders(result.stdout, resource + "?page=2")
        #expect(called.status == 200, "\(called)")
        let body = try #require(jsonObject(called.body))
        #expect(body["resource"] as? String == "ok" && body["token_type"] as? String == "DPoP" && body["method"] as? String == "GET")
        let withoutProof = try curlWithHeaders(lines[0] + "\n", resource)
        #expect(withoutProof.status == 401, "the token is bound: no proof, no access")
        let replayed = try curlWithHeaders(result.stdout, resource + "?page=2")
        #expect(replayed.status == 401, "a proof is good once (its jti)")
        expectNoSecrets(in: result, fixture: fixture)
    }

    /// A refresh carries a proof by the same key; another key is refused.
    @Test func refreshWithAKeptKey() async throws {
        let fixture = try await Fixture.make()
        let key = try await ProfileKeys.shared.key("ed25519"), other = try await ProfileKeys.shared.key("p256")
        let first = expectTokenJSON(try await run(fixture.profileFlow(client: "public-app") + ["--dpop-key", key.file("jwk")]))
        let refreshToken = try #require(first["refresh_token"] as? String)
        let refresh = ["--issuer", fixture.issuer("signed"), "--client-id", "public-app", "--refresh-token", "@-"]
        let again = try await run(refresh + ["--dpop-key", key.file("pkcs8")], stdin: refreshToken + "\n")
        #expect(expectTokenJSON(again)["token_type"] as? String == "DPoP")
        let token = try fixture.profileHits(to: "token")
        #expect(token.count == 2 && token[1].hit.form["grant_type"] == "refresh_token")
        #expect(token[1].proofHeader["alg"] as? String == "EdDSA" && token[0].decoded["dpop"] != nil)
        #expect((token[0].decoded["dpop"] as? [String: Any])?["jkt"] as? String == (token[1].decoded["dpop"] as? [String: Any])?["jkt"] as? String)
        let wrong = try await run(refresh + ["--dpop-key", other.file("jwk")], stdin: refreshToken + "\n")
        expectFailure(wrong, exit: 7, ["invalid_grant", "refresh token is bound to another DPoP key"])
        expectNoSecrets(in: wrong, fixture: fixture, extra: [refreshToken])
    }

    /// With --cache a bound token is kept with its key's thumbprint in the
    /// key: a hit prints a fresh proof that works; another key finds nothing.
    @Test func cachedBoundToken() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(Self.resourceOnlyBound)
        let cache = try CacheDir()
        let key = try await ProfileKeys.shared.key("p256"), other = try await ProfileKeys.shared.key("ed25519")
        let resource = fixture.issuer("signed") + "/resource"
        let flags = fixture.profileFlow(client: "public-app") + cache.flags + ["--print", "header", "--dpop-for", "GET \(resource)"]
        let first = try await run(flags + ["--dpop-key", key.file("jwk")])
        let second = try await run(flags + ["--dpop-key", key.file("pkcs8")])
        #expect(first.exitCode == 0 && second.exitCode == 0, "\(first)\n\(second)")
        #expect(try fixture.profileHits(to: "token").count == 1, "the second run is a cache hit")
        #expect(first.stdout.split(separator: "\n").first == second.stdout.split(separator: "\n").first)
        #expect(first.stdout != second.stdout, "a new proof each time")
        #expect(try curlWithHeaders(second.stdout, resource).status == 200)
        let third = try await run(flags + ["--dpop-key", other.file("jwk")])
        let tokenRequests = try fixture.profileHits(to: "token").count
        #expect(third.exitCode == 0 && tokenRequests == 2, "another key: another entry\n\(third)")
        let fresh = try await run(flags + ["--dpop"])
        expectFailure(fresh, exit: 2, ["'--cache' with '--dpop' needs '--dpop-key <file>'"])
    }

    /// A server that ignores DPoP answers Bearer: without --fapi2 that is its
    /// right (and --dpop-for has nothing to add), said by one warning
    /// (DPoPNonceTests has the rest); --fapi2 refuses it (exit 5).
    @Test func serverThatDoesNotBind() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["token_type": "Bearer"])
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "--print", "header", "--dpop-for", "GET https://api.example/"])
        #expect(result.exitCode == 0 && result.stdout.hasPrefix("Authorization: Bearer at-") && result.stdout.split(separator: "\n").count == 1, "\(result)")
        #expect(result.stderr == DPoPNonceTests.unbound + "\n", "one warning, not one per rule\n\(result)")
    }
}
