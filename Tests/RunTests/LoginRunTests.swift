import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Login and consent pages, JSON login steps (ARCHITECTURE.md "The walk"),
/// and how a failed login ends (exit 6), over the scripted server's login
/// flows. Moved from EndToEndTests/LoginFlowTests.
struct LoginRunTests {
    static let alice = ScriptedServer.alice
    /// Said first whenever `--form password=…` is on the command line.
    static let passwordHint = "authcode: hint: a password on the command line shows in 'ps' and shell history; use '--form password=@FILE'\n"
    static let rejectedHint = "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).\n"

    @Test func loginThenConsentWithPOSTAuthorization() throws {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient() + Self.alice + ["-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.sent == ["POST /authorize", "GET /login", "POST /login", "GET /consent", "POST /consent", "POST /token"])
        let consent = try #require(server.requests.first { $0.path == "/consent" && $0.method == .post })
        #expect(consent.form["decision"] == "allow", "the allow button, never deny")
        #expect(consent.form["txn"] != nil)
        let login = try #require(server.requests.first { $0.path == "/login" && $0.method == .post })
        #expect(login.form["username"] == "alice" && login.form["password"] == "wonderland")
        #expect(login.form["csrf_token"] != nil && login.form["remember"] == "yes", "hidden and checked fields kept")
        // §4 step 2: no --form value in the authorization request; the password goes to /login only.
        #expect(server.requests.filter { $0.form["password"] != nil || $0.query["password"] != nil }.map(\.path) == ["/login"])
        #expect(ran.err.contains("[redacted]"), "\(ran)")
        expectNoSecrets(ran, server: server)
    }

    @Test func loginThenConsentWithGETSendsThePasswordOnlyToLogin() throws {
        let server = ScriptedServer(.loginAndConsent)
        let password = try TempFile("wonderland\n")
        let ran = authcode(server.publicClient() + ["--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path, "-v"], server: server)
        expectToken(ran, from: server)
        let carriers = server.requests.filter { $0.form["password"] != nil || $0.query["password"] != nil }
        #expect(carriers.map(\.path) == ["/login"], "the password goes to /login only")
        #expect(carriers.first?.form["password"] == "wonderland", "@FILE read, newline dropped")
        #expect(server.requests.first { $0.path == "/consent" && $0.method == .post }?.form["decision"] == "allow")
        expectNoSecrets(ran, server: server)
    }

    @Test func submitChoosesTheButton() {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient() + Self.alice + ["--submit", "decision=allow"], server: server)
        expectToken(ran, from: server)
        #expect(server.requests(to: "/consent").last?.form["decision"] == "allow")
    }

    @Test func submitDenyEndsWithAccessDenied() {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient() + Self.alice + ["--submit", "decision=deny"], server: server)
        expectFailure(ran, .authorizationError, Self.passwordHint
                      + "authcode: error: the authorization server answered error=access_denied: The user denied the request (\(ScriptedServer.redirect))\n")
        #expect(server.requests(to: "/token").isEmpty)
        #expect(server.requests(to: "/consent").last?.form["decision"] == "deny")
    }

    /// The login form at the authorization endpoint itself; a session
    /// cookie with `Domain=` the host (an IP address, as the fixture's).
    @Test(arguments: [ScriptedServer.Flow.loginDirect, .loginCookieDomain(".127.0.0.1")])
    func loginPageFlows(_ flow: ScriptedServer.Flow) {
        let server = ScriptedServer(origin: "http://127.0.0.1:8080", flow)
        let ran = authcode(server.publicClient() + Self.alice + ["--verbose"], server: server)
        expectToken(ran, from: server)
        #expect(server.requests(to: "/token").count == 1)
        if case .loginDirect = flow {
            #expect(ran.sent == ["POST /authorize", "POST /authorize", "POST /token"], "the form posted back to the authorization endpoint")
        } else {
            #expect(ran.sent == ["POST /authorize", "GET /login", "POST /login", "POST /token"])
            #expect(server.requests(to: "/login").allSatisfy { $0.cookies["sid"] != nil }, "the Domain cookie came back")
        }
        expectNoSecrets(ran, server: server)
    }

    static func step(_ server: ScriptedServer, password: String = "wonderland") -> String {
        #"POST \#(server.url("/api/login")) {"username":"alice","password":"\#(password)"}"#
    }

    @Test func jsonLoginStep() throws {
        let server = ScriptedServer(.jsonLogin)
        let ran = authcode(server.publicClient() + ["--step", Self.step(server), "-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.sent == ["POST /api/login", "POST /authorize", "POST /token"], "the step goes first")
        let step = try #require(server.requests.first)
        #expect(step.header("Content-Type")?.contains("json") == true)
        #expect(step.json["username"] as? String == "alice")
        #expect(server.requests(to: "/authorize").first?.cookies["session"] != nil, "the step's cookie is shared")
        expectNoSecrets(ran, server: server)
    }

    @Test func jsonLoginStepBodyFromFile() throws {
        let server = ScriptedServer(.jsonLogin)
        let body = try TempFile("{\"username\":\"alice\",\"password\":\"wonderland\"}\n")
        let ran = authcode(server.publicClient() + ["--step", "POST \(server.url("/api/login")) @\(body.path)"], server: server)
        expectToken(ran, from: server)
        #expect(server.requests.first?.json["password"] as? String == "wonderland")
    }

    // MARK: exit 6

    @Test(arguments: [ScriptedServer.Flow.loginAndConsent, .loginDirect])
    func wrongPasswordIsLoginRejected(_ flow: ScriptedServer.Flow) {
        let server = ScriptedServer(flow)
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=not-alice"], server: server)
        let at = if case .loginDirect = flow { server.authorizeURL } else { server.url("/login") }
        expectFailure(ran, .noAuthorizationResponse,
                      Self.passwordHint + "authcode: error: login rejected: Invalid username or password. (\(at))\n" + Self.rejectedHint)
        #expect(server.requests(to: "/token").isEmpty)
        expectNoSecrets(ran, server: server, extra: ["not-alice"])
    }

    @Test func loginPageWithoutFormValuesNamesTheFields() {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient(), server: server)
        // The POST's walk failed before credentials went out: tried once more as GET (Flow/MethodFallback.swift),
        // said by -v only (issue 31 item 3).
        expectFailure(ran, .noAuthorizationResponse, "authcode: error: the login page asks for username, password, and no --form value fills them (\(server.url("/login")))\n"
                      + "Pass them with --form NAME=VALUE (e.g. --form username=VALUE --form password=@password.txt).\n")
        #expect(ran.sent == ["POST /authorize", "GET /login", "GET /authorize", "GET /login"])
    }

    @Test func jsonLoginStepWithWrongPassword() {
        let server = ScriptedServer(.jsonLogin)
        let ran = authcode(server.publicClient() + ["--step", Self.step(server, password: "not-alice")], server: server)
        // A body holding a password earns the hint a literal password does (issue 31 item 8).
        expectFailure(ran, .noAuthorizationResponse, "authcode: hint: a '--step' body holding a password on the command line shows in 'ps' and shell history; "
                      + "use '--step \"POST \(server.url("/api/login")) @FILE\"' (the body from a file)\n"
                      + #"authcode: error: step 1 (POST) answered 401: {"error":"bad credentials"} (\#(server.url("/api/login")))"# + "\n")
        #expect(ran.sent == ["POST /api/login"], "nothing after a failed step")
        expectNoSecrets(ran, server: server, extra: ["not-alice"])
    }

    @Test func jsonLoginWithoutStepMeetsAPageThatNeverSucceeds() {
        let server = ScriptedServer(.jsonLogin)
        let ran = authcode(server.publicClient() + Self.alice, server: server)
        expectFailure(ran, .noAuthorizationResponse,
                      Self.passwordHint + "authcode: error: login rejected: Please log in with the app. (\(server.url("/login")))\n" + Self.rejectedHint)
        #expect(ran.sent == ["POST /authorize", "GET /login", "POST /login"])
    }
}
