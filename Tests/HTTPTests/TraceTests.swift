import Testing
import TestSupport
@testable import Core
@testable import HTTP

struct TraceTests {
    static let formRequest = HTTPRequest.form(url: "https://as.example/authorize?tenant=a&code=q", fields: [
        ("client_id", "app"), ("username", "alice"), ("password", "hunter22"), ("code_verifier", "v-123456"), ("note", "my pin is hunter22"),
    ], headers: [HTTPHeader("Authorization", "Basic YXBwOnNlY3JldA=="), HTTPHeader("Cookie", "sid=abc; theme=dark")])

    static let redirect = HTTPResponse(status: 302, headers: [
        HTTPHeader("Location", "http://127.0.0.1:8765/cb?code=c0de-XYZ&state=st"), HTTPHeader("Set-Cookie", "sid=fresh-sid; HttpOnly"),
        HTTPHeader("Server", "hunter22-server"), HTTPHeader("Content-Type", "text/html"), HTTPHeader("WWW-Authenticate", "Basic realm=x"),
    ], body: Array("moved".utf8), elapsed: 0.0126)

    static func exercise(_ trace: Trace) {
        trace.info("token is \(String("hunter22"))")
        trace.request(formRequest, purpose: "authorization request")
        trace.request(HTTPRequest(method: "POST", url: "https://as.example/api/login", headers: [HTTPHeader("Content-Type", "application/json")],
                                  body: Array(#"{"password":"hunter22"}"#.utf8)), purpose: "step 1")
        trace.request(HTTPRequest(method: "GET", url: "https://as.example/empty", body: []), purpose: "empty body")
        trace.response(redirect)
    }

    @Test func disabledWritesNothing() {
        let console = CapturingConsole()
        let redactor = Redactor()
        redactor.remember("hunter22")
        var evaluated = false
        let trace = Trace(enabled: false, redactor: redactor, console: console, names: .standard)
        trace.info({ evaluated = true; return "expensive" }())
        Self.exercise(trace)
        #expect(console.err == "")
        #expect(console.out == "")
        #expect(!evaluated, "the message is not even built")
    }

    @Test func enabledMasksSecrets() {
        let console = CapturingConsole()
        let redactor = Redactor()
        redactor.remember("hunter22")
        Self.exercise(Trace(enabled: true, redactor: redactor, console: console, names: .standard))
        #expect(console.out == "")
        #expect(console.err == """
            * token is [redacted]
            * authorization request
            > POST https://as.example/authorize?tenant=a&code=[redacted]
            > Authorization: Basic [redacted]
            > Cookie: sid=[redacted]; theme=[redacted]
            > Content-Type: application/x-www-form-urlencoded
            > [form] client_id=app&username=alice&password=[redacted]&code_verifier=[redacted]&note=my pin is [redacted]
            * step 1
            > POST https://as.example/api/login
            > Content-Type: application/json
            > [body] 23 bytes, not shown
            * empty body
            > GET https://as.example/empty
            < 302 (13 ms, 5 bytes, new connection)
            < Location: http://127.0.0.1:8765/cb?code=[redacted]&state=st
            < Set-Cookie: sid=[redacted]
            < Content-Type: text/html
            < WWW-Authenticate: Basic realm=x

            """)
    }

    @Test(arguments: ["hunter22", "YXBwOnNlY3JldA==", "c0de-XYZ", "v-123456", "abc", "fresh-sid"])
    func enabledTraceHoldsNoSecret(secret: String) {
        let console = CapturingConsole()
        let redactor = Redactor()
        redactor.remember("hunter22")
        Self.exercise(Trace(enabled: true, redactor: redactor, console: console, names: .standard))
        #expect(!console.err.contains(secret))
    }

    @Test func capturingConsoleKeepsStreamsApart() {
        let console = CapturingConsole()
        console.writeOut("a")
        console.writeErr("b")
        console.writeOut("c\n")
        #expect(console.out == "ac\n")
        #expect(console.err == "b")
    }
}

/// -v shows server headers with their control characters escaped.
struct TraceControlTests {
    @Test func serverHeadersAreEscaped() {
        let console = CapturingConsole()
        let trace = Trace(enabled: true, redactor: Redactor(), console: console, names: .standard)
        trace.response(HTTPResponse(status: 200, headers: [
            HTTPHeader("Content-Type", "text/html\u{1B}[2J"), HTTPHeader("Refresh", "0; url=/x\u{9B}y"),
            HTTPHeader("Location", "/a\u{202E}b"), HTTPHeader("Set-Cookie", "n\u{7}=v"),
        ]))
        #expect(console.err == """
            < 200 (0 ms, 0 bytes, new connection)
            < Content-Type: text/html\\x1b[2J
            < Refresh: 0; url=/x\\u009by
            < Location: /a\\u202eb
            < Set-Cookie: n\\x07=[redacted]

            """)
    }
}
