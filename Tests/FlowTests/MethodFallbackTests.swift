import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow

/// The POST→GET fallback (Flow/MethodFallback.swift) over a transport in
/// memory: when it happens, what it sends again, and when it must not.
struct MethodFallbackTests {
    static let form = [NameValue("username", "alice"), NameValue("password", "hunter2-pw")]

    static func run(_ transport: ScriptedTransport, _ change: (inout FlowSettings) -> Void = { _ in })
        -> (Result<FlowResult, FlowError>, CapturingConsole) {
        let console = CapturingConsole()
        let flow = TokenFlow(settings: Server.settings { $0.walk.form = form; change(&$0) }, console: console, transport: transport, wording: TestWording())
        do throws(FlowError) {
            return (.success(try flow.run()), console)
        } catch {
            return (.failure(error), console)
        }
    }

    static func note(_ why: String) -> String {
        "authcode: note: \(why); sending it again as GET without the --form values (--method GET goes there directly)\n"
    }

    static func accessToken(_ result: Result<FlowResult, FlowError>) -> String? {
        guard case .success(.token(let token)) = result else { return nil }
        return token.response.accessToken
    }

    @Test(arguments: [403, 405, 415])
    func aRefusedPOSTIsSentAgainAsGET(status: Int) throws {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix(Server.token) { return Server.token(for: request) }
            return request.method == "POST" ? HTTPResponse(status: status) : Server.code("c1", for: request)
        }
        let (result, console) = Self.run(transport)
        #expect(Self.accessToken(result) == "at-c1")
        #expect(console.err == "", "a fallback that works is not news (README, How the walk works, step 2)")
        #expect(Server.lines(transport) == ["POST \(Server.authorize)", "GET \(Server.authorize)", "POST \(Server.token)"])
        let (post, get) = (Server.fields(transport.requests[0]), Server.fields(transport.requests[1]))
        #expect(post["password"] == nil && post["username"] == nil && get["password"] == nil && get["username"] == nil,
                "neither request carries a --form value")
        #expect(post["state"] != get["state"] && post["code_challenge"] != get["code_challenge"], "fresh state and PKCE")
        let verbose = Self.run(transport) { $0.output.verbosity = .verbose }.1
        #expect(verbose.err.split(separator: "\n").filter { $0.hasPrefix("authcode: note:") }.map { $0 + "\n" }
                == [Self.note("the server refused the POST authorization request (\(status))")], "-v says it")
    }

    /// A server that turns the POST into a GET by copying the password into
    /// a URL: that URL is never fetched.
    @Test func aFormValueCopiedIntoALocationIsNotFollowed() {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix(Server.token) { return Server.token(for: request) }
            if request.method == "POST" { return Server.redirect("/login?username=alice&password=hunter2-pw") }
            return Server.code("c2", for: request)
        }
        let (result, console) = Self.run(transport)
        #expect(Self.accessToken(result) == "at-c2")
        #expect(console.err == "", "a fallback that works is not news (README, How the walk works, step 2)")
        #expect(Server.lines(transport) == ["POST \(Server.authorize)", "GET \(Server.authorize)", "POST \(Server.token)"])
        let verbose = Self.run(transport) { $0.output.verbosity = .verbose }.1
        #expect(verbose.err.split(separator: "\n").filter { $0.hasPrefix("authcode: note:") }.map { $0 + "\n" }
                == [Self.note("the server copied a --form value into a URL (\(Server.login)), which was not followed")], "-v says it")
    }

    /// A dead end before any credentials went into a form: one more try as
    /// GET, whose failure is the run's.
    @Test func aWalkThatLeadsNowhereFallsBackOnce() {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("boom".utf8)) }
        let (result, console) = Self.run(transport)
        #expect(result == .failure(.walk(.unexpectedStatus(500, .page("boom", html: false), at: Server.authorize))))
        #expect(console.err == "", "the note is -v's (issue 31 item 3)")
        #expect(Server.lines(transport) == ["POST \(Server.authorize)", "GET \(Server.authorize)"])
    }

    /// After a login form went out, a second try would log in again (a
    /// lockout counter counts it): the failure stands, nothing is resent.
    @Test func noFallbackAfterCredentialsWereSent() {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix(Server.login) { return HTTPResponse(status: 500) }
            return Server.loginPage
        }
        let (result, console) = Self.run(transport)
        #expect(result == .failure(.walk(.unexpectedStatus(500, .nothing, at: Server.login))))
        #expect(console.err == "")
        #expect(Server.lines(transport) == ["POST \(Server.authorize)", "POST \(Server.login)"])
        #expect(Server.fields(transport.requests[1])["password"] == "hunter2-pw")
    }

    /// Only a dead end falls back: a network failure or a security refusal
    /// is the answer.
    @Test(arguments: [HTTPError.network(.other, detail: "Couldn't connect to server", url: Server.authorize, suspect: nil),
                      .bodyTooLarge(limitMiB: 4, url: Server.authorize)])
    func otherFailuresDoNotFallBack(failure: HTTPError) {
        let transport = ScriptedTransport { _ throws(HTTPError) in throw failure }
        let (result, console) = Self.run(transport)
        #expect(result == .failure(.walk(.http(failure))))
        #expect(console.err == "")
        #expect(Server.lines(transport) == ["POST \(Server.authorize)"])
    }

    @Test func getNeverFallsBack() {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 405) }
        let (result, _) = Self.run(transport) { $0.request.method = .get }
        #expect(result == .failure(.walk(.unexpectedStatus(405, .nothing, at: Server.authorize))))
        #expect(Server.lines(transport) == ["GET \(Server.authorize)"])
    }

    @Test func quietDropsTheNoteNotTheFallback() {
        let transport = ScriptedTransport { request in
            if request.url.hasPrefix(Server.token) { return Server.token(for: request) }
            return request.method == "POST" ? HTTPResponse(status: 405) : Server.code("c3", for: request)
        }
        let (result, console) = Self.run(transport) { $0.output.verbosity = .quiet }
        #expect(Self.accessToken(result) == "at-c3")
        #expect(console.err == "")
    }
}

extension Result where Success == FlowResult, Failure == FlowError {
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.failure(let a), .failure(let b)): a == b
        default: false
        }
    }
}
