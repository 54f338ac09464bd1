import Foundation
import Testing

/// authcode against a real third-party server: django-oauth-toolkit 3.4.1
/// (Fixtures/django/README.md). Its login form, CSRF cookies, consent page,
/// relative Locations and RFC 9207 iss are not ours to shape.
/// Serialized so the printed wall times measure authcode, not a queue.
@Suite("django-oauth-toolkit interop", .serialized)
struct DjangoInteropTests {
    static let redirect = "http://127.0.0.1:8765/callback"

    struct Server {
        let base: String
        var issuer: String { base + "/o" }
        var endpoints: [String] { ["--authorize-url", issuer + "/authorize/", "--token-url", issuer + "/token/"] }
    }

    private func server() async throws -> Server {
        // Without a venv this throws "django venv missing: run 'make test' …": a failure, never a skip.
        Server(base: try await DjangoServer.shared.baseURL())
    }

    private func timed(_ name: String, _ result: RunResult) {
        print("django wall time: \(name): \(String(format: "%.3f", result.seconds)) s (exit \(result.exitCode))")
    }

    @Test func confidentialClientWithConsentPage() async throws {
        let dot = try await server()
        let secret = try TempFile("conf-secret\n"), password = try TempFile("wonderland\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "conf-consent", "--client-secret", "@" + secret.path, "--method", "GET",
            "--form", "username=alice", "--form", "password=@" + password.path,
            "--scope", "openid profile", "--redirect-uri", Self.redirect, "-v",
        ])
        timed("conf-consent (login + consent, -v)", result)
        let object = expectTokenJSON(result)
        #expect(object["id_token"] is String, "\(result)")
        #expect(object["scope"] as? String == "openid profile")
        #expect(result.stdout.hasPrefix("{\"access_token\": \""), "DOT's body exactly as received, not re-serialized\n\(result)")
        #expect(result.stderr.contains("[redacted]"))
        expectNoSecrets(in: result)
    }

    /// The flags a user gives: no --method. DOT refuses the POST with its
    /// CSRF 403, and authcode falls back to GET once, saying so.
    @Test func defaultFlagsFallBackFromTheCSRF403ToGET() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "conf-consent", "--form", "username=alice", "--form", "password=@" + password.path,
            "--scope", "openid profile", "--redirect-uri", Self.redirect,
        ], env: ["AUTHCODE_CLIENT_SECRET": "conf-secret"])
        timed("default flags: POST, 403, GET, login + consent", result)
        let object = expectTokenJSON(result)
        #expect(object["id_token"] is String, "\(result)")
        // The POST was refused (403) and the GET worked: not news without -v (README "How the walk works", step 2).
        #expect(result.stderr == "", "\(result)")
        expectNoSecrets(in: result)
    }

    /// With --issuer, default flags verify django-oauth-toolkit's RS256
    /// id_token against the key its jwks_uri publishes (the key generated
    /// at start, Fixtures/django/run_server.py), then its userinfo.
    @Test func defaultFlagsVerifyTheIDTokenSignature() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run([
            "--issuer", dot.issuer, "--client-id", "public-pkce", "--form", "username=alice", "--form", "password=@" + password.path,
            "--scope", "openid", "--redirect-uri", Self.redirect, "--userinfo", "-v",
        ])
        timed("default flags, --issuer, signature verified", result)
        let object = expectTokenJSON(result)
        let header = jwtPart(object["id_token"] as? String, 0)
        #expect(header["alg"] as? String == "RS256")
        let kid = try #require(header["kid"] as? String)
        let line = try #require(traceLines(result, "id_token:").first, "\(result)")
        #expect(line.hasPrefix("* id_token: signature RS256 kid \(kid); iss; aud; "), "\(result)")
        #expect(line.hasSuffix("; sub; nonce"), "\(result)")
        #expect(traceLines(result, "userinfo:") == ["* userinfo: sub matches the id_token's"], "\(result)")
        expectNoSecrets(in: result)
    }

    @Test func defaultFlagsWrongPasswordIsLoginRejected() async throws {
        let dot = try await server()
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--form", "username=alice", "--form", "password=@-", "--redirect-uri", Self.redirect, "-q",
        ], stdin: "not-alice\n")
        timed("default flags, wrong password", result)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: login rejected: Please enter a correct username and password. (\(dot.base)/accounts/login/)\n",
                "\(result)")
        expectNoSecrets(in: result, extra: ["not-alice"])
    }

    /// Issue 31 items 1 and 10 on the real server: `--form user=…` (its
    /// field is `username`) names the unmatched name with the form's
    /// fields; a redirect_uri django-oauth-toolkit does not know gets its
    /// "Mismatching redirect URI" page and the `--redirect-uri` hint.
    @Test func wrongFieldNameAndWrongRedirectURIPointTheRightWay() async throws {
        let dot = try await server()
        let typo = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--form", "user=alice", "--form", "password=@-", "--redirect-uri", Self.redirect,
        ], stdin: "wonderland\n")
        expectFailure(typo, exit: 6, [])
        #expect(typo.stderr == "authcode: error: login rejected: Please enter a correct username and password.; no field took --form user "
                + "(the login's fields: username, password) (\(dot.base)/accounts/login/)\n"
                + "Give --form the login's own field names (username=…, password=…), or username and password, which fill a login form's identifier "
                + "and password fields.\n", "\(typo)")
        let wrong = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--form", "username=alice", "--form", "password=@-", "--redirect-uri", "http://127.0.0.1:8765/elsewhere",
        ], stdin: "wonderland\n")
        expectFailure(wrong, exit: 6, ["Mismatching redirect URI"])
        #expect(wrong.stderr.hasSuffix("\nCheck --redirect-uri against the client's registration (scheme, host, port and path must match).\n"), "\(wrong)")
    }

    @Test func publicClientWithPKCE() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland")
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path,
            "--scope", "openid", "--redirect-uri", Self.redirect,
        ])
        timed("public-pkce", result)
        let object = expectTokenJSON(result)
        #expect(object["id_token"] is String)
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test func confidentialClientWithoutConsent() async throws {
        let dot = try await server()
        let result = try await run(dot.endpoints + [
            "--client-id", "conf-skip", "--method", "GET", "--form", "username=alice", "--form", "password=@-",
            "--redirect-uri", Self.redirect, "--auth-method", "client_secret_post",
        ], env: ["AUTHCODE_CLIENT_SECRET": "conf-skip-secret"], stdin: "wonderland\n")
        timed("conf-skip (client_secret_post, password from stdin)", result)
        let object = expectTokenJSON(result)
        #expect(object["scope"] as? String == "read", "DOT's default scope")
        expectNoSecrets(in: result)
    }

    @Test func wrongPasswordIsLoginRejected() async throws {
        let dot = try await server()
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--method", "GET", "--form", "username=alice", "--form", "password=not-alice",
            "--redirect-uri", Self.redirect,
        ])
        timed("wrong password", result)
        expectFailure(result, exit: 6, ["login rejected", "Please enter a correct username and password", "/accounts/login/"])
        expectNoSecrets(in: result, extra: ["not-alice"])
    }

    @Test func printCodeCarriesRFC9207Iss() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path,
            "--redirect-uri", Self.redirect, "--print", "code", "--expect-iss", dot.issuer,
        ])
        timed("--print code --expect-iss", result)
        #expect(result.exitCode == 0, "\(result)")
        let object = try #require(jsonObject(result.stdout), "\(result)")
        #expect(object["iss"] as? String == dot.issuer, "\(object)")
        #expect((object["code"] as? String)?.isEmpty == false)
        #expect(object["redirect_uri"] as? String == Self.redirect)
    }

    @Test func wrongExpectedIssIsRefused() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path,
            "--redirect-uri", Self.redirect, "--expect-iss", dot.base + "/other",
        ])
        timed("wrong --expect-iss", result)
        expectFailure(result, exit: 5, ["iss", dot.issuer])
    }

    @Test func discovery() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run([
            "--issuer", dot.issuer, "--client-id", "conf-consent", "--method", "GET",
            "--form", "username=alice", "--form", "password=@" + password.path,
            "--scope", "openid", "--redirect-uri", Self.redirect,
        ], env: ["AUTHCODE_CLIENT_SECRET": "conf-secret"])
        timed("--issuer (discovery, consent)", result)
        let object = expectTokenJSON(result)
        #expect(object["id_token"] is String)
    }

    @Test func wrongClientSecretIsATokenEndpointRefusal() async throws {
        let dot = try await server()
        let password = try TempFile("wonderland\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "conf-skip", "--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path,
            "--redirect-uri", Self.redirect,
        ], env: ["AUTHCODE_CLIENT_SECRET": "not-the-secret"])
        timed("wrong client secret", result)
        expectFailure(result, exit: 7, ["invalid_client"])
        expectNoSecrets(in: result, extra: ["not-the-secret"])
    }

    /// 50 users of django-oauth-toolkit minted in one batch, 8 at a time,
    /// each with its own session: every line is a token, in input order.
    @Test func batchOfFiftyUsers() async throws {
        let dot = try await server()
        let users = try TempFile("username,password\n" + (1...50).map { "user\($0),pw-\($0)" }.joined(separator: "\n") + "\n")
        let result = try await run(dot.endpoints + [
            "--client-id", "public-pkce", "--scope", "openid", "--redirect-uri", Self.redirect,
            "--users", users.path, "--parallel", "8", "--method", "GET",
        ], timeout: 120)
        timed("batch of 50 users, --parallel 8", result)
        print("django batch: \(String(format: "%.1f", 50 / result.seconds)) tokens/s")
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { jsonObject(String($0)) ?? [:] }
        #expect(lines.count == 50)
        #expect(lines.map { $0["line"] as? Int } == (1...50).map { $0 })
        #expect(lines.allSatisfy { ($0["token"] as? [String: Any])?["access_token"] is String })
        #expect(lines.map { $0["user"] as? String } == (1...50).map { "user\($0)" })
    }

    /// The cache refreshes a stale entry at DOT, which rotates refresh
    /// tokens: the new one is stored and works the next time; the old one
    /// is refused.
    @Test func cacheRefreshesWithRotation() async throws {
        let dot = try await server()
        let cache = try CacheDir()
        let flow = dot.endpoints + ["--client-id", "public-pkce", "--scope", "openid", "--redirect-uri", Self.redirect,
                                    "--form", "username=alice", "--form", "password=@-", "--method", "GET"] + cache.flags
        let first = expectTokenJSON(try await run(flow, stdin: "wonderland"))
        let oldRefresh = try #require(first["refresh_token"] as? String)
        // DOT's tokens live 36000 s: asking for more makes the entry stale.
        let second = try await run(flow + ["--min-ttl", "40000", "-v"], stdin: "wonderland")
        let refreshed = expectTokenJSON(second)
        #expect(second.stderr.contains("* token from a refresh"), "\(second)")
        #expect(refreshed["refresh_token"] as? String != oldRefresh, "DOT rotates refresh tokens")
        #expect(refreshed["id_token"] is String)
        let third = try await run(flow + ["--min-ttl", "40000", "-v"], stdin: "wonderland")
        #expect(third.stderr.contains("* token from a refresh"), "the rotated token was stored\n\(third)")
        let reused = try await run(dot.endpoints + ["--client-id", "public-pkce", "--refresh-token", oldRefresh])
        expectFailure(reused, exit: 7, ["invalid_grant"])
        expectNoSecrets(in: second, extra: [oldRefresh])
    }
}
