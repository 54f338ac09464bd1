import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Client authentication at the token endpoint (RFC 6749 §2.3.1) and what a
/// refusal says. Moved from EndToEndTests/ClientAuthAndInputTests and
/// HintDirectionTests.
struct ClientAuthRunTests {
    @Test func clientSecretBasicEncodesIdAndSecretPerRFC6749() throws {
        let server = ScriptedServer(clients: ["weird:app id": "p@ss:w/rd+ =%&"])
        let ran = authcode(server.endpoints + ["--client-id", "weird:app id", "--redirect-uri", ScriptedServer.redirect, "-v"],
                           env: ["AUTHCODE_CLIENT_SECRET": "p@ss:w/rd+ =%&"], server: server)
        expectToken(ran, from: server)
        let token = try #require(server.requests(to: "/token").first)
        let authorization = try #require(token.header("Authorization"), "no Authorization header")
        #expect(authorization.hasPrefix("Basic "))
        let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count))).map { String(decoding: $0, as: UTF8.self) }
        // RFC 6749 §2.3.1: each of id and secret application/x-www-form-urlencoded, then joined by ':'.
        #expect(decoded == "weird%3Aapp+id:p%40ss%3Aw%2Frd%2B+%3D%25%26", "\(decoded ?? "not base64")")
        #expect(token.form["client_secret"] == nil, "Basic auth must not repeat the secret in the body")
        #expect(ran.err.contains("> Authorization: Basic [redacted]\n"), "\(ran)")
        expectNoSecrets(ran, server: server, extra: ["p@ss:w/rd+ =%&", "p%40ss%3Aw%2Frd%2B+%3D%25%26"])
    }

    @Test func clientSecretPostPutsTheSecretInTheBody() throws {
        let server = ScriptedServer()
        let ran = authcode(server.confidential() + ["--auth-method", "client_secret_post", "--verbose"], env: ScriptedServer.demoSecretEnv, server: server)
        expectToken(ran, from: server)
        let token = try #require(server.requests(to: "/token").first)
        #expect(token.header("Authorization") == nil)
        #expect(token.form["client_id"] == "demo-app" && token.form["client_secret"] == "demo-secret")
        expectNoSecrets(ran, server: server)
    }

    @Test func publicClientSendsClientIdOnlyWithPKCE() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--auth-method", "none"], server: server)
        expectToken(ran, from: server)
        let token = try #require(server.requests(to: "/token").first)
        #expect(token.header("Authorization") == nil)
        #expect(token.form["client_id"] == "public-app" && token.form["client_secret"] == nil)
        #expect(token.form["grant_type"] == "authorization_code")
        #expect(token.form["code_verifier"] != nil && token.form["code"] != nil)
        #expect(server.requests(to: "/authorize").first?.form["code_challenge"] != nil)
    }

    @Test func wrongClientSecretIsATokenEndpointRefusal() {
        let server = ScriptedServer()
        let ran = authcode(server.confidential(), env: ["AUTHCODE_CLIENT_SECRET": "not-the-secret"], server: server)
        expectFailure(ran, .tokenEndpoint, "authcode: error: the login worked, but the token endpoint refused: 401 error=invalid_client: Client authentication failed"
                      + " (https://as.example/token)\n"
                      + "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header).\n")
        expectNoSecrets(ran, server: server, extra: ["not-the-secret"])
    }

    /// Every option a hint names.
    static func options(in text: String) -> Set<String> {
        Set(text.split(whereSeparator: { !($0.isLetter || $0 == "-" || $0.isNumber) }).map(String.init).filter { $0.hasPrefix("--") })
    }

    /// Issue 22 item 4: an `invalid_client` after the login is about the
    /// client, never `--form`.
    @Test(arguments: [
        ([String](), [String: String](),
         "The client was sent as public, with no secret; if it is confidential, pass --client-secret.", ["--client-secret"]),
        ([], ["AUTHCODE_CLIENT_SECRET": "not-the-secret"],
         "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header).",
         ["--client-secret", "--auth-method"]),
        (["--auth-method", "client_secret_post"], ["AUTHCODE_CLIENT_SECRET": "not-the-secret"],
         "Check --client-secret, or try --auth-method client_secret_basic (the secret in the Authorization header).",
         ["--client-secret", "--auth-method"]),
    ])
    func invalidClientSaysTheLoginWorked(_ arguments: [String], _ env: [String: String], _ hint: String, _ named: [String]) {
        let server = ScriptedServer()
        let ran = authcode(server.confidential() + arguments, env: env, server: server)
        expectFailure(ran, .tokenEndpoint, "authcode: error: the login worked, but the token endpoint refused: 401 error=invalid_client: Client authentication failed"
                      + " (https://as.example/token)\n\(hint)\n")
        #expect(Self.options(in: hint) == Set(named))
        #expect(ran.sent == ["POST /authorize", "POST /token"])
        expectNoSecrets(ran, server: server, extra: ["not-the-secret"])
    }
}
