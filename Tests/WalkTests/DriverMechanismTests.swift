import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The driver mechanism (Walk/Drivers/): which page a driver gets, how its
/// steps join the walk's hop budget, trace and origin rules, and how the walk
/// goes on from where it leaves off — the redirect_uri test unchanged.
struct DriverMechanismTests {
    static let authorize = "https://as.example/authorize?state=s1"
    static let redirect = "http://127.0.0.1:8765/cb"
    static let answer = redirect + "?code=c0de&state=s1"
    static let loginPage = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")],
                                        body: Array(#"<html><script>window.app={"flow":"f1"}</script><div id="app"></div></html>"#.utf8))

    /// A provider whose page holds `window.app` and whose API takes the
    /// password as JSON, then hands back a URL to go on with.
    struct ScriptLogin: LoginDriver {
        var provider: IdentityProvider { .okta }
        /// What `drive` returns once logged in.
        let finish: Finish
        enum Finish: Sendable { case send, received, generic }

        func recognises(_ page: DriverPage) -> Bool { page.html.contains("window.app=") }

        func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
            if finish == .generic { return .generic }
            guard let user = session.value(for: ["identifier", "username"]), let password = session.value(for: ["password"]) else {
                throw .credentialsMissing(provider: provider, names: ["identifier", "password"], at: page.place)
            }
            var login = HTTPRequest(method: .post, url: "https://as.example/api/login", headers: [HTTPHeader("Content-Type", "application/json")],
                                    body: Array(#"{"identifier":"\#(user)","password":"\#(password)"}"#.utf8))
            login.credential = .filledForm
            let answer = try session.send(login, step: "password")
            let json = try session.json(answer, at: "https://as.example/api/login")
            guard let next = json["next"]?.stringValue else {
                throw .loginRejected(provider: provider, text: json["message"]?.stringValue, at: "https://as.example/api/login")
            }
            let following = HTTPRequest(method: .get, url: next)
            switch finish {
            case .send: return .send(following)
            case .received: return .received(try session.send(following, step: "continue"), for: following)
            case .generic: return .generic
            }
        }
    }

    final class Server: @unchecked Sendable {
        let transport: ScriptedTransport
        init(loginAnswer: HTTPResponse = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                                                      body: Array(#"{"next":"https://as.example/continue"}"#.utf8))) {
            transport = ScriptedTransport { request in
                switch URIReference(request.url)?.withoutQuery {
                case "https://as.example/authorize": return DriverMechanismTests.loginPage
                case "https://as.example/api/login": return loginAnswer
                case "https://as.example/continue": return HTTPResponse(status: 302, headers: [HTTPHeader("Location", DriverMechanismTests.answer)])
                default: return HTTPResponse(status: 404)
                }
            }
        }
    }

    static func walker(_ transport: ScriptedTransport, finish: ScriptLogin.Finish = .send, choice: IdentityProvider = .auto, maxHops: Int = 10,
                       form: [NameValue] = [NameValue("username", "alice"), NameValue("password", "hunter2-pw")],
                       trusted: [String] = ["https://as.example"], console: CapturingConsole = CapturingConsole()) -> Walker {
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: true, redactor: redactor, console: console, names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        client.adapters.append(OriginPolicy(trusting: trusted, userHeaders: [], trace: trace))
        return Walker(client: client, target: RedirectTarget(URIReference(redirect)!), maxHops: maxHops, formValues: form, submit: nil, state: "s1",
                      drivers: DriverRegistry(choice: choice, drivers: [ScriptLogin(finish: finish)]))
    }

    static let first = HTTPRequest(method: .get, url: authorize)

    @Test(arguments: [ScriptLogin.Finish.send, .received])
    func theWalkGoesOnWhereTheDriverLeavesIt(finish: ScriptLogin.Finish) throws {
        let server = Server()
        let walker = Self.walker(server.transport, finish: finish)
        let answer = try walker.walk(from: Self.first)
        #expect(answer == .redirect(URIReference(Self.answer)!))
        #expect(server.transport.requests.map(\.url) == [Self.authorize, "https://as.example/api/login", "https://as.example/continue"])
        // The driver's POST is a hop; the continue is one when the walk sends
        // it, and a read (no hop) when the driver fetched it itself.
        #expect(walker.hops == (finish == .send ? 2 : 1))
        #expect(walker.credentialsSubmitted, "the driver's login counts as credentials sent: no fallback may log in again")
    }

    /// A driver that keeps reading (GETs the provider answers forever)
    /// stops at four reads per hop allowed, without sending more.
    @Test func readsAreBounded() {
        let transport = ScriptedTransport { request in
            request.url.hasPrefix("https://as.example/authorize") ? DriverMechanismTests.loginPage : HTTPResponse(status: 200, body: Array("{}".utf8))
        }
        struct Poller: LoginDriver {
            var provider: IdentityProvider { .okta }
            func recognises(_ page: DriverPage) -> Bool { true }
            func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
                while true { _ = try session.send(HTTPRequest(method: .get, url: "https://as.example/poll"), step: "poll") }
            }
        }
        let trace = Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false), trace: trace, now: { 0 })
        let walker = Walker(client: client, target: RedirectTarget(URIReference(Self.redirect)!), maxHops: 3, formValues: [], submit: nil, state: "s1",
                            drivers: DriverRegistry(drivers: [Poller()]))
        #expect(throws: WalkError.driver(.noProgress(provider: .okta, requests: 12, at: "https://as.example/poll"))) {
            try walker.walk(from: Self.first)
        }
        #expect(transport.requests.count == 13, "the authorization request and 12 reads")
    }

    @Test func aDriverStepCountsAgainstMaxHops() {
        let server = Server()
        #expect(throws: WalkError.hopLimit(1, at: "https://as.example/continue")) {
            try Self.walker(server.transport, maxHops: 1).walk(from: Self.first)
        }
    }

    @Test func noneTurnsDriversOff() {
        let server = Server()
        #expect(throws: WalkError.needsJavaScript(at: "https://as.example/authorize")) {
            try Self.walker(server.transport, choice: .none).walk(from: Self.first)
        }
        #expect(server.transport.requests.count == 1)
    }

    @Test func genericLeavesThePageToTheWalk() {
        let server = Server()
        #expect(throws: WalkError.needsJavaScript(at: "https://as.example/authorize")) {
            try Self.walker(server.transport, finish: .generic).walk(from: Self.first)
        }
    }

    @Test func aNamedDriverTakesTheFirstPageUnrecognised() throws {
        let plain = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<p>sign in</p>".utf8))
        let transport = ScriptedTransport { request in
            switch URIReference(request.url)?.withoutQuery {
            case "https://as.example/authorize": return plain
            case "https://as.example/api/login": return HTTPResponse(status: 200, body: Array(#"{"next":"https://as.example/continue"}"#.utf8))
            default: return HTTPResponse(status: 302, headers: [HTTPHeader("Location", Self.answer)])
            }
        }
        #expect(try Self.walker(transport, choice: .okta).walk(from: Self.first) == .redirect(URIReference(Self.answer)!))
        let unnamed = ScriptedTransport { _ in plain }
        #expect(throws: WalkError.self) { try Self.walker(unnamed).walk(from: Self.first) }
        #expect(unnamed.requests.count == 1, "auto: an unrecognised page is the generic walk's")
    }

    @Test func credentialsGoOnlyToATrustedOrigin() {
        let server = Server()
        #expect(throws: WalkError.http(.untrustedOrigin(.filledForm, origin: "https://as.example", url: "https://as.example/api/login"))) {
            try Self.walker(server.transport, trusted: ["https://idp.example"]).walk(from: Self.first)
        }
        #expect(server.transport.requests.count == 1, "the password never left")
    }

    @Test func theProvidersOwnTextRejectsTheLogin() {
        let server = Server(loginAnswer: HTTPResponse(status: 401, body: Array(#"{"message":"Password is incorrect"}"#.utf8)))
        #expect(throws: WalkError.driver(.loginRejected(provider: .okta, text: "Password is incorrect", at: "https://as.example/api/login"))) {
            try Self.walker(server.transport).walk(from: Self.first)
        }
    }

    @Test func anAnswerThatIsNotJSONIsNamedNotQuoted() {
        let server = Server(loginAnswer: HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<p>hunter2-pw</p>".utf8)))
        #expect(throws: WalkError.driver(.pageUnknown(provider: .okta, saw: "a 500 answer of 17 bytes of text/html where JSON was expected",
                                                      at: "https://as.example/api/login"))) {
            try Self.walker(server.transport).walk(from: Self.first)
        }
    }

    @Test func theTraceNamesTheDriverAndItsStepsWithoutSecrets() throws {
        let server = Server()
        let console = CapturingConsole()
        _ = try Self.walker(server.transport, console: console).walk(from: Self.first)
        #expect(console.err.contains("* okta login: driver takes https://as.example/authorize\n"))
        #expect(console.err.contains("* okta: password\n"))
        #expect(!console.err.contains("hunter2-pw"))
    }
}
