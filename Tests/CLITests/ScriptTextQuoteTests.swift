import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk
@testable import Flow
@testable import CLI

/// An error line reads what a person reads: a page's script (an Auth0 Lock
/// page's base64 configuration, which holds its CSRF value) is never quoted,
/// whatever status the page came with. The walk keeps the page raw
/// (HTTP/Quoting/BodyQuote.swift); the line the CLI makes of it is checked.
struct ScriptTextQuoteTests {
    static let config = "eyJzdGF0ZSI6ImhLRm8yU0IiLCJfY3NyZiI6ImNzcmYtc2VjcmV0LXZhbHVlIn0="

    @Test(arguments: [200, 500])
    func scriptTextIsNeverQuoted(status: Int) {
        let body = #"<html><head><title>Sign In</title></head><body><script src="https://cdn.auth0.com/js/lock/11/lock.min.js"></script><script>var config = JSON.parse(decodeURIComponent(escape(window.atob('\#(Self.config)'))));</script></body></html>"#
        let page = HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(body.utf8))
        let transport = ScriptedTransport { _ in page }
        let trace = Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        let walker = Walker(client: client, target: RedirectTarget(URIReference("http://127.0.0.1:8765/cb")!), maxHops: 10, formValues: [],
                            submit: nil, state: "s1")
        do {
            _ = try walker.walk(from: HTTPRequest(method: .get, url: "https://as.example/authorize?client_id=app&state=s1"))
            Issue.record("no error")
        } catch {
            let report = ErrorReport(.walk(error))
            #expect(!report.line.contains("atob") && !report.line.contains(Self.config), "\(report.line)")
            #expect(!(report.hint ?? "").contains(Self.config))
        }
    }
}
