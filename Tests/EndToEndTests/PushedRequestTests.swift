import Foundation
import Testing

/// PAR (RFC 9126), request objects (RFC 9101), resource indicators (RFC
/// 8707) and authorization details (RFC 9396) against the fixture's
/// `signed` scenario, which verifies request objects with PyPI
/// `cryptography` and records what each endpoint received.
@Suite("Modern profile: pushed and signed authorization requests")
struct PushedRequestTests {
    func keyed(_ fixture: Fixture, _ extra: [String: Any] = [:]) async throws -> ProfileKeys.Key {
        let key = try await ProfileKeys.shared.key("p256")
        try fixture.configure(["client_jwks": try Fixture.clientJWKS([key])].merging(extra) { $1 })
        return key
    }

    /// The authorization parameters go to the PAR endpoint with client
    /// authentication; the front channel carries client_id and request_uri.
    @Test(arguments: [false, true])
    func pushed(requiredByMetadata: Bool) async throws {
        let fixture = try await Fixture.make("par-\(requiredByMetadata)")
        let key = try await keyed(fixture, ["par_required": requiredByMetadata])
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk")] + (requiredByMetadata ? [] : ["--par"]))
        expectTokenJSON(result)
        let hits = try fixture.profileHits().filter { $0.hit.endpoint != "openid-configuration" }
        // The id_token is verified after the token: one key set fetch.
        #expect(hits.map(\.hit.endpoint) == ["par", "authorize", "token", "jwks"], "\(hits.map(\.hit))")
        let par = hits[0].hit, authorize = hits[1]
        #expect(par.status == 201 && par.method == "POST")
        #expect(par.form["response_type"] == "code" && par.form["redirect_uri"] == Fixture.redirect && par.form["scope"] == "openid")
        #expect(par.form["code_challenge_method"] == "S256" && par.form["nonce"] != nil && par.form["state"] != nil)
        #expect(Set(authorize.hit.form.keys) == ["client_id", "request_uri"], "\(authorize.hit)")
        #expect(authorize.decoded["outside_pushed_request"] == nil)
    }

    /// A PAR refusal is exit 4 with the OAuth error, anything else exit 7,
    /// a 2xx without request_uri exit 8; the body is never quoted, and no
    /// authorization request follows.
    @Test func pushRefused() async throws {
        let fixture = try await Fixture.make()
        let key = try await keyed(fixture, ["token_auth_methods": ["client_secret_basic"]])
        let flow = fixture.profileFlow() + ["--client-key", key.file("jwk"), "--par"]
        let refused = try await run(flow)
        expectFailure(refused, exit: 4, [])
        #expect(refused.errorLine == "authcode: error: the pushed authorization request endpoint refused: 401 error=invalid_client: "
                + "client authentication method private_key_jwt is not allowed here (\(fixture.issuer("signed"))/par)", "\(refused)")
        for (path, exit, says) in [("/nothing", Int32(7), " answered 404 with 10 bytes of text/plain (not shown: it may hold secrets)"),
                                   ("/cb", 8, "'s answer has no request_uri: 200 with 17 bytes of text/plain (not shown: it may hold secrets)")] {
            try fixture.configure(["client_jwks": try Fixture.clientJWKS([key]),
                                   "metadata": ["pushed_authorization_request_endpoint": fixture.issuer("signed") + path]])
            let result = try await run(flow)
            #expect(result.errorLine == "authcode: error: the pushed authorization request endpoint\(says) (\(fixture.issuer("signed"))\(path))", "\(result)")
            expectFailure(result, exit: exit, [])
            #expect(!result.stderr.contains("callback reached") && !result.stderr.contains("not found"), "the body is never quoted")
        }
        #expect(try fixture.profileHits(to: "authorize").isEmpty)
    }

    /// RFC 9101: every parameter inside a signed JWT (typ, iss, aud = the
    /// issuer, exp, nbf, jti), sent beside client_id; pushed with --par.
    @Test(arguments: [false, true])
    func requestObject(pushed: Bool) async throws {
        let fixture = try await Fixture.make("ro-\(pushed)")
        let key = try await keyed(fixture, ["request_object_outer_params": "reject", "par_outer_params": "reject"])
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk"), "--request-object"] + (pushed ? ["--par"] : []))
        expectTokenJSON(result)
        let carrier = try #require(try fixture.profileHits(to: pushed ? "par" : "authorize").first)
        let object = carrier.part("request_object", "claims"), header = carrier.part("request_object", "header")
        #expect(header["typ"] as? String == "oauth-authz-req+jwt" && header["alg"] as? String == "ES256" && header["kid"] as? String == "p256")
        #expect(object["iss"] as? String == "demo-app" && object["aud"] as? String == fixture.issuer("signed"))
        #expect(object["client_id"] as? String == "demo-app" && object["response_type"] as? String == "code")
        #expect(object["redirect_uri"] as? String == Fixture.redirect && object["code_challenge_method"] as? String == "S256")
        let (exp, nbf) = (object["exp"] as? Int ?? 0, object["nbf"] as? Int ?? 0)
        #expect(exp - nbf == 300 && object["jti"] is String && object["state"] is String && object["nonce"] is String)
        let outer = Set(carrier.hit.form.keys)
        #expect(pushed ? outer == ["client_id", "request", "client_assertion", "client_assertion_type"] : outer == ["client_id", "request"], "\(outer)")
        if pushed {
            #expect(Set(try #require(try fixture.profileHits(to: "authorize").first).hit.form.keys) == ["client_id", "request_uri"])
        }
    }

    /// Without a client key a request object is MACed with the client secret (HS256).
    @Test func requestObjectWithTheClientSecret() async throws {
        let fixture = try await Fixture.make()
        let result = try await run(fixture.profileFlow() + ["--request-object"], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let authorize = try #require(try fixture.profileHits(to: "authorize").first)
        #expect(authorize.part("request_object", "header")["alg"] as? String == "HS256")
        expectNoSecrets(in: result, fixture: fixture, extra: [authorize.hit.form["request"] ?? "missing"])
    }

    /// RFC 8707 and RFC 9396: every --resource in the authorization (or PAR)
    /// and token requests, the authorization details where the parameters
    /// go, and the answer's authorization_details printed as received.
    @Test(arguments: [false, true])
    func resourceAndAuthorizationDetails(pushed: Bool) async throws {
        let fixture = try await Fixture.make("rar-\(pushed)")
        let key = try await keyed(fixture)
        let details = #"[{"type":"payment_initiation","actions":["initiate"],"instructedAmount":{"currency":"EUR","amount":"1.50"}}]"#
        let resources = ["https://api.example/accounts", "urn:example:payments"]
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk"), "--authorization-details", details]
                                   + resources.flatMap { ["--resource", $0] } + (pushed ? ["--par"] : []))
        let object = expectTokenJSON(result)
        let front = try #require(try fixture.profileHits(to: pushed ? "par" : "authorize").first)
        #expect(front.decoded["resource"] as? [String] == resources)
        #expect(front.decoded["authorization_details"] as? String == details)
        let token = try #require(try fixture.profileHits(to: "token").first)
        #expect(token.decoded["resource"] as? [String] == resources)
        let sent = try JSONSerialization.jsonObject(with: Data(details.utf8)) as? NSArray
        #expect((object["authorization_details"] as? NSArray) == sent, "\(result)")
        #expect(result.stdout.contains(#""authorization_details":["#))
    }

    /// --front-param goes on the front-channel request too (and is pushed);
    /// the authorization endpoint URL's own query stays on it.
    @Test func frontChannelParameters() async throws {
        let fixture = try await Fixture.make()
        let key = try await keyed(fixture)
        let result = try await run(fixture.profileFlow() + ["--client-key", key.file("jwk"), "--par", "--front-param", "g_continue=true",
                                                            "--method", "GET", "--authorize-url", fixture.issuer("signed") + "/authorize?tenant=a"])
        expectTokenJSON(result)
        let par = try #require(try fixture.profileHits(to: "par").first), authorize = try #require(try fixture.profileHits(to: "authorize").first)
        #expect(par.hit.form["g_continue"] == "true")
        #expect(Set(authorize.hit.queryItems.keys) == ["tenant", "client_id", "request_uri", "g_continue"], "\(authorize.hit)")
        #expect(authorize.decoded["outside_pushed_request"] as? [String] == ["g_continue", "tenant"])
    }

    /// Bad authorization details and bad resources are exit 2 before any request.
    @Test(arguments: [
        (["--authorization-details", "[]"], "the array is empty"),
        (["--authorization-details", #"{"type":"x"}"#], "it is not a JSON array"),
        (["--resource", "api"], "expected an absolute URI without a fragment (RFC 8707)"),
    ])
    func refusedBeforeAnyRequest(extra: [String], says: String) async throws {
        let fixture = try await Fixture.make()
        let result = try await run(fixture.profileFlow() + extra)
        expectFailure(result, exit: 2, [says])
        #expect(try fixture.hits().isEmpty)
    }
}
