import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Exit 4 (the server said error=) and exit 5 (a security check failed;
/// the code is never redeemed): state before error, iss (RFC 9207), the
/// discovery document's issuer, the id_token's claims (OIDC Core
/// §3.1.3.7). Moved from EndToEndTests/SecurityCheckTests and
/// AnswerDeliveryTests.
struct SecurityCheckRunTests {
    /// Text an attacker would write (Fixtures/server/authorize.py FORGED_DESCRIPTION).
    static let forged = "\u{1B}[2JSession expired. Sign in again at https://evil.example/login"

    /// Answers the authorization request with `fields`, then state unless `withState` is false.
    static func answering(_ server: ScriptedServer, _ fields: @escaping @Sendable (ScriptedServer, Pending) -> [(String, String)],
                          withState: Bool = true) {
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            return server.answer(pending, fields(server, pending), withState: withState)
        }
    }

    static func withCode(_ server: ScriptedServer, _ pending: Pending) -> [(String, String)] {
        let code = ScriptedServer.fresh("code-")
        server.state.withLock { $0.codes[code] = (pending, "alice") }
        return [("code", code)]
    }

    @Test func accessDenied() {
        let server = ScriptedServer()
        Self.answering(server) { _, _ in [("error", "access_denied"), ("error_description", "The user denied the request")] }
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .authorizationError,
                      "authcode: error: the authorization server answered error=access_denied: The user denied the request (\(ScriptedServer.redirect))\n")
        #expect(server.requests(to: "/token").isEmpty)
    }

    /// A public client without PKCE: the server redirects error=invalid_request.
    @Test func invalidRequestRedirectedBack() {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--pkce", "off"], server: server)
        expectFailure(ran, .authorizationError, "authcode: error: the authorization server answered error=invalid_request:"
                      + " PKCE (code_challenge) is required for public clients (\(ScriptedServer.redirect))\n")
    }

    /// State is checked before error: an error= nobody can tie to this
    /// request is exit 5, and its text (with an ESC) is not shown.
    @Test(arguments: [
        (false, "the error answer (its text is not shown: anyone can forge it) has no state; the code is not redeemed"),
        (true, "state mismatch: the error answer (its text is not shown: anyone can forge it) is not for this request; the code is not redeemed"),
    ])
    func forgedErrorIsNotBelieved(forgedState: Bool, message: String) {
        let server = ScriptedServer()
        Self.answering(server, { _, _ in
            [("error", "invalid_scope"), ("error_description", Self.forged)] + (forgedState ? [("state", ScriptedServer.fresh("forged-"))] : [])
        }, withState: false)
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .securityCheck, "authcode: error: \(message) (\(ScriptedServer.redirect))\n")
        #expect(ran.sent == ["POST /authorize"])
    }

    @Test func issOfAnotherOriginWithoutExpectedIssuer() {
        let server = ScriptedServer(origin: "http://127.0.0.1:8080")
        server.behaviour.withLock { $0.iss = "http://127.0.0.2:1/evil" }
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .securityCheck, "authcode: error: iss 'http://127.0.0.2:1/evil' is not of the authorization endpoint's origin http://127.0.0.1:8080"
                      + " (RFC 9207); the code is not redeemed (\(ScriptedServer.redirect))\nIf that issuer is right, pass --expect-iss with it.\n")
        #expect(server.requests(to: "/token").isEmpty)
    }

    @Test func issOfTheSameOriginIsAcceptedUnlessAnotherIsExpected() {
        let server = ScriptedServer()
        server.behaviour.withLock { $0.iss = "https://as.example/other-tenant" }
        expectToken(authcode(server.publicClient(), server: server), from: server)
        let strict = authcode(server.publicClient() + ["--expect-iss", "https://as.example"], server: server)
        #expect(strict.exit == .securityCheck && strict.out.isEmpty, "\(strict)")
        #expect(strict.errorLine?.contains("iss mismatch") == true && strict.errorLine?.contains("https://as.example/other-tenant") == true, "\(strict)")
        #expect(server.requests(to: "/token").count == 1)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var discovery = false
        var extra: [String] = []
        let setUp: @Sendable (ScriptedServer) -> Void
        /// What the error line says (each must appear).
        let says: [String]
        /// Whether the code was redeemed before the check (the id_token's).
        var redeemed = false
        var testDescription: String { name }
    }

    static func idToken(_ claims: @escaping @Sendable (Int) -> [String: String]) -> @Sendable (ScriptedServer) -> Void {
        { server in server.behaviour.withLock { $0.idTokenClaims = claims } }
    }

    static let cases: [Case] = [
        Case(name: "wrong state", setUp: { answering($0, { withCode($0, $1) + [("state", ScriptedServer.fresh("forged-"))] }, withState: false) },
             says: ["state mismatch"]),
        Case(name: "wrong iss", extra: ["--expect-iss", "https://as.example"], setUp: { server in server.behaviour.withLock { $0.iss = "https://evil.example" } },
             says: ["iss", "https://evil.example"]),
        Case(name: "code twice", setUp: { answering($0) { withCode($0, $1) + withCode($0, $1) } }, says: ["'code' more than once"]),
        Case(name: "discovery document of another issuer", discovery: true, setUp: { $0.serveDiscovery(claimedIssuer: "https://other.example") },
             says: ["issuer", "https://other.example"]),
        Case(name: "discovery promises iss, the answer has none", discovery: true,
             setUp: { server in server.serveDiscovery(); server.behaviour.withLock { $0.iss = nil } }, says: ["no iss"]),
        Case(name: "discovered issuer, another iss", discovery: true,
             setUp: { server in server.serveDiscovery(); server.behaviour.withLock { $0.iss = "https://evil.example" } }, says: ["iss", "https://evil.example"]),
        Case(name: "id_token of another issuer, --expect-iss", extra: ["--scope", "openid", "--expect-iss", "https://as.example"],
             setUp: idToken { _ in ["iss": #""https://evil.example""#] }, says: ["id_token iss is not the expected issuer"], redeemed: true),
        // No issuer given or in the answer: the token endpoint's origin is expected (issue 17 class 5).
        Case(name: "id_token of another issuer, none expected", extra: ["--scope", "openid"],
             setUp: idToken { _ in ["iss": #""https://evil.example""#] },
             says: ["id_token iss is not of the origin of https://as.example", "pass --issuer or --expect-iss"], redeemed: true),
        Case(name: "id_token for another client", extra: ["--scope", "openid"], setUp: idToken { _ in ["aud": #""other-client""#] },
             says: ["id_token aud does not contain this client 'public-app'"], redeemed: true),
        Case(name: "id_token expired", extra: ["--scope", "openid"], setUp: idToken { now in ["iat": String(now - 3900), "exp": String(now - 3600)] },
             says: ["id_token has expired"], redeemed: true),
        Case(name: "id_token with another nonce", extra: ["--scope", "openid"], setUp: idToken { _ in ["nonce": #""wrong-nonce-value""#] },
             says: ["nonce"], redeemed: true),
        Case(name: "id_token aud array without azp", extra: ["--scope", "openid"], setUp: idToken { _ in ["aud": #"["public-app","other"]"#] },
             says: ["aud names an audience besides this client", "--trust-audience"], redeemed: true),
    ]

    @Test(arguments: cases)
    func securityCheckFails(_ c: Case) {
        let server = ScriptedServer()
        c.setUp(server)
        let ran = authcode((c.discovery ? server.discovered() : server.publicClient()) + c.extra + ["-v"], server: server)
        #expect(ran.exit == .securityCheck && ran.out.isEmpty, "\(ran)")
        let line = ran.errorLine ?? ""
        for text in c.says { #expect(line.contains(text) || ran.err.contains(text), "stderr lacks '\(text)'\n\(ran)") }
        #expect(server.requests(to: "/token").count == (c.redeemed ? 1 : 0), "the code is not redeemed after a failed check")
        expectNoSecrets(ran, server: server)
    }

    @Test func wrongStateNeverRedeems() {
        let server = ScriptedServer()
        Self.answering(server, { Self.withCode($0, $1) + [("state", ScriptedServer.fresh("forged-"))] }, withState: false)
        let ran = authcode(server.confidential() + ["--print", "code"], env: ScriptedServer.demoSecretEnv, server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: state mismatch: the authorization response is not for this request; the code is not redeemed (\(ScriptedServer.redirect))\n")
        #expect(ran.sent == ["POST /authorize"], "only the authorization request")
    }
}
