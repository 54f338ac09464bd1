import Foundation
import Testing

/// `--call 'METHOD URL [BODY]'` (README "Calling the API (`--call`)") against the fixture's `signed`
/// scenario, whose `/resource` checks Bearer and DPoP tokens with PyPI
/// `cryptography` (proof signature, htm, htu, ath, nonce) and answers the
/// way RFC 6750 §3 and RFC 9449 §9 say; and against Glewlwyd's userinfo
/// endpoint with a DPoP-bound token.
@Suite("--call: the token used at once")
struct CallTests {
    /// A Bearer token: stdout is the resource's body byte for byte (the
    /// fixture's JSON, its own spacing), nothing on stderr, exit 0; a form
    /// body goes as a form, a `{` body as JSON.
    @Test func bearer() async throws {
        let fixture = try await Fixture.make()
        let resource = fixture.issuer("signed") + "/resource"
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--call", "GET \(resource)?page=2"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let body = try #require(jsonObject(result.stdout), "\(result)")
        #expect(body["resource"] as? String == "ok" && body["token_type"] as? String == "Bearer" && body["method"] as? String == "GET")
        let hit = try #require(try fixture.hits(to: "resource").last)
        #expect(hit.query == "page=2" && hit.headers["authorization"]?.hasPrefix("Bearer at-") == true, "\(hit)")
        let posted = try await run(fixture.profileFlow(client: "public-app") + ["--call", "POST \(resource) q=1&r=two"])
        #expect(posted.exitCode == 0 && jsonObject(posted.stdout)?["method"] as? String == "POST", "\(posted)")
        #expect(try fixture.hits(to: "resource").last?.form == ["q": "1", "r": "two"])
        expectNoSecrets(in: result, fixture: fixture)
    }

    /// The body exactly as the server sent it: compared with what curl gets
    /// for the same request.
    @Test func bodyByteForByte() async throws {
        let fixture = try await Fixture.make()
        let resource = fixture.issuer("signed") + "/resource"
        let token = try await run(fixture.profileFlow(client: "public-app") + ["--print", "header"])
        let called = try curlWithHeaders(token.stdout, resource)
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--call", "GET \(resource)"])
        #expect(result.exitCode == 0, "\(result)")
        // Same shape, byte for byte (sub and client differ not; the scope neither).
        #expect(result.stdout == called.body, "\(result)\n\(called.body)")
    }

    /// A DPoP-bound token at a resource that asks for a nonce: the first
    /// call gets 401 use_dpop_nonce, the second carries the nonce, a new
    /// proof (jti) and `ath`; stdout is the 200's body only.
    @Test func dpopNonceRetry() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["resource_require_dpop": true, "dpop_nonce": ["resource"]])
        let resource = fixture.issuer("signed") + "/resource"
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "--call", "GET \(resource)", "-v"])
        #expect(result.exitCode == 0, "\(result)")
        let body = try #require(jsonObject(result.stdout), "\(result)")
        #expect(body["token_type"] as? String == "DPoP" && body["resource"] as? String == "ok")
        let hits = try fixture.profileHits(to: "resource")
        #expect(hits.map { $0.hit.status ?? 0 } == [401, 200], "\(hits.map(\.hit))")
        #expect(hits[0].proofClaims["nonce"] == nil && hits[1].proofClaims["nonce"] is String)
        #expect(hits.allSatisfy { $0.proofClaims["ath"] is String && $0.proofClaims["htm"] as? String == "GET" && $0.proofClaims["htu"] as? String == resource })
        #expect(hits[0].proofClaims["jti"] as? String != hits[1].proofClaims["jti"] as? String)
        #expect(traceLines(result, "the server asks for a DPoP nonce").count == 1, "\(result)")
        expectNoSecrets(in: result, fixture: fixture)
    }

    /// With --cache the resource server's nonce is kept in the entry: the
    /// next run (a cache hit) calls once, with it.
    @Test func nonceKeptInTheCache() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["resource_require_dpop": true, "dpop_nonce": ["resource"]])
        let cache = try CacheDir()
        let key = try await ProfileKeys.shared.key("p256")
        let resource = fixture.issuer("signed") + "/resource"
        let flags = fixture.profileFlow(client: "public-app") + cache.flags + ["--dpop-key", key.file("jwk"), "--call", "GET \(resource)"]
        let first = try await run(flags)
        let second = try await run(flags)
        #expect(first.exitCode == 0 && second.exitCode == 0, "\(first)\n\(second)")
        #expect(try fixture.profileHits(to: "token").count == 1, "the second run is a cache hit")
        let hits = try fixture.profileHits(to: "resource")
        #expect(hits.map { $0.hit.status ?? 0 } == [401, 200, 200], "\(hits.map(\.hit))")
        #expect(hits[2].proofClaims["nonce"] as? String == hits[1].proofClaims["nonce"] as? String)
    }

    /// A token the resource server no longer takes (401 invalid_token) with
    /// a refresh token at hand: one refresh, one more call; with --cache the
    /// refreshed token replaces the entry, so the run after uses it as is.
    @Test func refreshOnInvalidToken() async throws {
        let fixture = try await Fixture.make()
        let cache = try CacheDir()
        let resource = fixture.issuer("signed") + "/resource"
        let flags = fixture.profileFlow(client: "public-app") + cache.flags + ["--call", "GET \(resource)"]
        #expect(try await run(flags).exitCode == 0)
        try httpDelete("\(fixture.base)/_access/\(fixture.run)")
        let second = try await run(flags + ["-v"])
        #expect(second.exitCode == 0 && jsonObject(second.stdout)?["resource"] as? String == "ok", "\(second)")
        #expect(traceLines(second, "the resource server refused the token").count == 1, "\(second)")
        let third = try await run(flags)
        #expect(third.exitCode == 0, "\(third)")
        let grants = try fixture.profileHits(to: "token").map { $0.hit.form["grant_type"] ?? "" }
        #expect(grants == ["authorization_code", "refresh_token"], "one refresh, and the third run is a hit on the refreshed entry")
        #expect(try fixture.profileHits(to: "resource").map { $0.hit.status ?? 0 } == [200, 401, 200, 200])
        expectNoSecrets(in: second, fixture: fixture)
    }

    /// Without a refresh token, invalid_token is the answer: exit 10, the
    /// body on stdout, the status and the RFC 6750 error on stderr.
    @Test func errorStatusIsExit10() async throws {
        let fixture = try await Fixture.make()
        let resource = fixture.issuer("signed") + "/resource"
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--call", "DELETE \(resource)"])
        #expect(result.exitCode == 10, "\(result)")
        #expect(jsonObject(result.stdout)?["error"] as? String == "invalid_request", "the body is on stdout\n\(result)")
        #expect(result.stderr == "authcode: error: the resource server answered 405 to DELETE: error=invalid_request (\(resource))\n", "\(result)")
        let quiet = try await run(fixture.profileFlow(client: "public-app") + ["--call", "DELETE \(resource)", "-q"])
        #expect(quiet.exitCode == 10 && quiet.stderr == result.stderr)
    }

    /// A refused token (DPoP-bound resource, Bearer token, no refresh
    /// token to try): exit 10 with the hint about scope and resource.
    @Test func unauthorizedHint() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["resource_require_dpop": true])
        let resource = fixture.issuer("signed") + "/resource"
        let result = try await run(["--issuer", fixture.issuer("signed"), "--client-id", "public-app", "--redirect-uri", Fixture.redirect,
                                    "--scope", "profile", "--call", "GET \(resource)"])
        #expect(result.exitCode == 10, "\(result)")
        #expect(result.stderr == """
            authcode: error: the resource server answered 401 to GET: error=invalid_token: this resource requires a DPoP-bound access token (\(resource))
            The resource server did not take the token: check that --scope and --resource ask for what it needs (-v shows the call, the token redacted).

            """, "\(result)")
    }

    /// The plain-http rule holds for the call, before any request: no
    /// login is spent on a token that may not go there.
    @Test func plainHTTPRefusedFirst() async throws {
        let fixture = try await Fixture.make()
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--call", "GET http://api.example/me"])
        expectFailure(result, exit: 5, ["plain http", "http://api.example/me"])
        #expect(try fixture.hits().isEmpty, "nothing was sent")
    }

    /// `--dpop-nonce` puts the nonce into the `--dpop-for` proof, so the
    /// curl recipe gets past a resource that asks for one.
    @Test func dpopNonceForCurl() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(Fixture.proofsSentLater.merging(["resource_require_dpop": true, "dpop_nonce": ["resource"]]) { $1 })
        let resource = fixture.issuer("signed") + "/resource"
        let flags = fixture.profileFlow(client: "public-app") + ["--dpop", "--print", "header", "--dpop-for", "GET \(resource)"]
        let first = try await run(flags)
        // What a curl user sees: the 401 and its DPoP-Nonce header.
        let answer = try runTool("curl", ["-s", "--max-time", "10", "-D", "-", "-o", "/dev/null", "-H", "@-", resource], stdin: Data(first.stdout.utf8))
        #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
        let nonceLine = answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("dpop-nonce:") }
        let nonce = try #require(nonceLine.map { String($0.dropFirst("dpop-nonce:".count)).trimmingCharacters(in: .whitespaces) }, "\(answer)")
        let second = try await run(flags + ["--dpop-nonce", nonce])
        #expect(jwtPart(String(second.stdout.split(separator: "\n")[1].dropFirst("DPoP: ".count)), 1)["nonce"] as? String == nonce)
        #expect(try curlWithHeaders(second.stdout, resource).status == 200, "\(second)")
    }
}

extension CallTests {
    /// With `--users` each record's token makes the call: its JSON line
    /// carries the status and the body; a record whose call answered 400
    /// or more carries an error with exit 10 too, and the batch is exit 9.
    @Test func batchCarriesStatusAndBody() async throws {
        let fixture = try await Fixture.make()
        let resource = fixture.issuer("signed") + "/resource"
        let users = "username,password\nuser1,pw-1\nuser2,pw-2\n"
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--users", "-", "--call", "GET \(resource)"], stdin: users)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(lines.map { $0["user"] as? String } == ["user1", "user2"], "\(result)")
        // The signed scenario issues its code at once (the record's fields
        // fill login forms, never the authorization request: README "How the
        // walk works", step 2), so each record's own token shows as a token of its own.
        for line in lines {
            let call = try #require(line["call"] as? [String: Any], "\(result)")
            let body = jsonObject(call["body"] as? String ?? "")
            #expect(call["status"] as? Int == 200 && body?["resource"] as? String == "ok", "\(result)")
            #expect((line["token"] as? [String: Any])?["access_token"] is String)
        }
        let tokens = Set(lines.compactMap { ($0["token"] as? [String: Any])?["access_token"] as? String })
        #expect(tokens.count == 2, "each record's own token")
        let refused = try await run(fixture.profileFlow(client: "public-app") + ["--users", "-", "--call", "DELETE \(resource)", "-q"], stdin: users)
        #expect(refused.exitCode == 9, "\(refused)")
        let failed = refused.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(failed.count == 2 && failed.allSatisfy { ($0["call"] as? [String: Any])?["status"] as? Int == 405 }, "\(refused)")
        #expect(failed.allSatisfy { ($0["error"] as? [String: Any])?["exit"] as? Int == 10 }, "\(refused)")
        #expect((failed.first?["error"] as? [String: Any])?["message"] as? String
                == "the resource server answered 405 to DELETE: error=invalid_request (\(resource))")
    }
}

/// `DELETE URL` to the fixture's admin endpoints.
func httpDelete(_ url: String) throws {
    _ = try runTool("curl", ["-s", "--max-time", "10", "-X", "DELETE", "-o", "/dev/null", "-w", "%{http_code}", url])
}
