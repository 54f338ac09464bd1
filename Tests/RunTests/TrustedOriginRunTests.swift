import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Credentials go only to trusted origins (README.md "Trusted origins";
/// HTTP/OriginPolicy.swift): the walk may pass through another origin, but
/// a filled-in form, a replayed body and the -H headers stay with the
/// servers the user named. The scripted server answers for every origin;
/// each request's URL says which one it went to. Moved from
/// EndToEndTests/TrustedOriginTests, after Fixtures/server/xorigin.py.
struct TrustedOriginRunTests {
    static let origin = "http://127.0.0.1:8080"
    static let otherHost = "http://127.0.0.2:8080"
    static let otherPort = "http://127.0.0.1:8081"
    static let login = ScriptedServer.alice

    static func hint(_ origin: String) -> String {
        "Credentials go only to the origins of --issuer, --authorize-url, --token-url, --step and the discovered endpoints;"
            + " if \(origin) is part of this login, pass --trust-origin \(origin).\n"
    }

    static func origin(of request: HTTPRequest) -> String { URIReference(request.url)?.origin ?? "" }

    /// A login page at /login whose form posts to `action`; a right password there gives the code.
    static func loginPage(_ server: ScriptedServer, action: @escaping @Sendable (String) -> String) {
        let handler: ScriptedServer.Route = { exchange, server in
            guard let pending = server.parked(exchange) else { return ScriptedServer.unknownTransaction }
            guard exchange.method == "POST" else { return .html(Page.login(action: action(pending.txn), hidden: [])) }
            guard ScriptedServer.checkUser(exchange.form["username"], exchange.form["password"]) else {
                return .html(Page.login(action: action(pending.txn), hidden: [], error: ScriptedServer.wrongPassword))
            }
            return server.answerCode(pending, user: "alice")
        }
        server.on("/login", handler)
        server.on("/other/login", handler)
    }

    /// xorigin-form: the login form's action is on `other`.
    static func formServer(other: String) -> ScriptedServer {
        let server = ScriptedServer(origin: origin)
        server.on("/authorize") { $1.startLogin($0) }
        loginPage(server) { "\(other)/other/login?txn=\($0)" }
        return server
    }

    /// A login form whose action is another host, or another port of the same host.
    @Test(arguments: [otherHost, otherPort])
    func formToAnotherOriginIsExit6(other: String) {
        let server = Self.formServer(other: other)
        let ran = authcode(server.confidential() + Self.login, env: ScriptedServer.demoSecretEnv, server: server)
        expectFailure(ran, .noAuthorizationResponse, LoginRunTests.passwordHint
                      + "authcode: error: refusing to send the filled-in form (--form values) to \(other), which is not a trusted origin (\(other)/other/login)\n"
                      + Self.hint(other))
        #expect(!ran.requests.contains { Self.origin(of: $0) == other }, "nothing reaches the other origin")
        #expect(ran.sent == ["POST /authorize", "GET /login"])
    }

    @Test func trustOriginLetsTheFormGo() {
        let server = Self.formServer(other: Self.otherHost)
        let ran = authcode(server.confidential() + Self.login + ["--trust-origin", Self.otherHost], env: ScriptedServer.demoSecretEnv, server: server)
        expectToken(ran, from: server)
        let elsewhere = ran.requests.filter { Self.origin(of: $0) == Self.otherHost }
        #expect(elsewhere.map(\.path) == ["/other/login"])
        #expect(elsewhere.first?.form["password"] == "wonderland")
        // The client secret and the verifier only ever go to the token endpoint.
        #expect(elsewhere.allSatisfy { $0.header("Authorization") == nil && $0.form["code_verifier"] == nil && $0.form["client_secret"] == nil })
        expectNoSecrets(ran, server: server)
    }

    /// The environment works too, one origin per line.
    @Test func trustOriginFromTheEnvironment() {
        let server = Self.formServer(other: Self.otherPort)
        let ran = authcode(server.publicClient() + Self.login, env: ["AUTHCODE_TRUST_ORIGIN": "https://unrelated.example\n\(Self.otherPort)/"], server: server)
        expectToken(ran, from: server)
        #expect(ran.requests.contains { Self.origin(of: $0) == Self.otherPort && $0.form["password"] == "wonderland" })
    }

    /// A 307 would replay the POSTed body to another host: refused (a
    /// replayed body is a credential, whatever it holds), and the walk falls
    /// back to GET (README.md "How the walk works", step 2), so nothing
    /// reaches it; the password goes only to the login form.
    @Test func replayedBodyToAnotherOriginIsNeverSent() {
        let server = ScriptedServer(origin: Self.origin)
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            let txn = server.park(pending)
            return exchange.method == "POST" ? .redirect("\(Self.otherHost)/other/authorize?txn=\(txn)", status: 307) : .redirect(server.url("/login?txn=\(txn)"))
        }
        server.on("/other/authorize") { exchange, server in
            // The other origin's end: the same POST body gives a code, as `direct` would.
            guard exchange.method == "POST", let pending = server.parked(exchange, pop: true), exchange.form["client_id"] != nil else {
                return .html(Page.message("Error", "307 did not keep method and body."), status: 400)
            }
            return server.answerCode(pending, user: "alice")
        }
        Self.loginPage(server) { "login?txn=\($0)" }
        let ran = authcode(server.publicClient() + Self.login, server: server)
        expectToken(ran, from: server)
        // The fallback worked: no note without -v (README "How the walk works", step 2).
        #expect(ran.err == LoginRunTests.passwordHint, "\(ran)")
        #expect(!ran.requests.contains { Self.origin(of: $0) == Self.otherHost })
        #expect(ran.sent == ["POST /authorize", "GET /authorize", "GET /login", "POST /login", "POST /token"])
        #expect(ran.requests.filter { $0.form["password"] != nil }.map(\.path) == ["/login"], "the password went only to the login form")

        let trusted = ScriptedServer(origin: Self.origin)
        ["/authorize", "/other/authorize", "/login", "/other/login"].forEach { trusted.on($0, server.route($0)) }
        let ran2 = authcode(trusted.publicClient() + Self.login + ["--trust-origin", Self.otherHost], server: trusted)
        expectToken(ran2, from: trusted)
        #expect(ran2.err == LoginRunTests.passwordHint, "no fallback when the origin is trusted\n\(ran2)")
        let replayed = ran2.requests.filter { Self.origin(of: $0) == Self.otherHost }
        #expect(replayed.map(\.path) == ["/other/authorize"], "\(ran2)")
        #expect(replayed.allSatisfy { $0.form["password"] == nil && $0.form["username"] == nil }, "the replayed request has no --form value")
    }

    /// The walk may pass through another origin; -H headers stay behind.
    @Test func headersStayWithTrustedOrigins() {
        let server = ScriptedServer(origin: Self.origin)
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            return .redirect("\(Self.otherHost)/other/hop?txn=\(server.park(pending))")
        }
        server.on("/other/hop") { exchange, server in
            // Like debugging servers, it echoes the request's headers, values included.
            let echoed = exchange.request.headers.map { "\($0.name): \($0.value)\n" }.joined()
            return HTTPResponse(status: 302, headers: [HTTPHeader("Location", server.url("/finish?txn=\(exchange.query["txn"] ?? "")")),
                                                       HTTPHeader("Set-Cookie", "hop=1; Path=/")], body: Array(("Redirecting\n" + echoed).utf8))
        }
        server.on("/finish") { exchange, server in
            guard let pending = server.parked(exchange, pop: true) else { return ScriptedServer.unknownTransaction }
            return server.answerCode(pending, user: "alice")
        }
        let ran = authcode(server.publicClient() + ["-H", "X-Api-Secret: qwerty-123456", "-H", "X-Tenant: t1", "-v"], server: server)
        expectToken(ran, from: server)
        let elsewhere = ran.requests.filter { Self.origin(of: $0) == Self.otherHost }
        #expect(elsewhere.count == 1)
        #expect(elsewhere.allSatisfy { $0.header("X-Api-Secret") == nil && $0.header("X-Tenant") == nil })
        #expect(ran.requests.filter { Self.origin(of: $0) != Self.otherHost }.allSatisfy { $0.header("X-Api-Secret") == "qwerty-123456" })
        #expect(ran.err.contains("* not sending the -H headers to \(Self.otherHost): not a trusted origin\n"), "\(ran)")
        expectNoSecrets(ran, server: server, extra: ["qwerty-123456"])
    }

    /// Plain http to a host that is not loopback is checked first: exit 5.
    @Test func plainHTTPIsCheckedBeforeTrust() {
        let server = Self.formServer(other: "http://login.example.invalid")
        let ran = authcode(server.publicClient() + Self.login, server: server)
        expectFailure(ran, .securityCheck, LoginRunTests.passwordHint
                      + "authcode: error: refusing plain http to 'login.example.invalid': secrets would travel unencrypted (http://login.example.invalid/other/login)\n"
                      + "Use https, or pass --allow-http if this network is trusted.\n")
        #expect(ran.sent == ["POST /authorize", "GET /login"])
    }
}
