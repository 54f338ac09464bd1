import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// A page that only scripts can fill is named as such, with the --step way out.
@Suite struct ScriptPageTests {
    static func handler() -> PageHandler {
        PageHandler(target: RedirectTarget(URIReference("http://127.0.0.1:8765/cb")!), formValues: [NameValue("username", "alice")],
                    submit: nil, trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard))
    }

    static func page(_ html: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8))
    }

    @Test(arguments: [
        #"<html><head><script>window.kcContext = {"pageId":"login.ftl"};</script><script type="module" src="/a.js"></script></head><body><div id="root"></div></body></html>"#,
        #"<div id="okta-sign-in"></div><script src="https://ok.example/js/okta-sign-in.min.js"></script>"#,
        #"<form id="app"></form><script>render()</script>"#,
    ])
    func pageWithoutAFormButWithScripts(_ html: String) {
        #expect(throws: ScriptPage.failure(at: "https://as.example/login")) {
            _ = try Self.handler().handle(Self.page(html), at: "https://as.example/login?x=1")
        }
    }

    @Test func pageWithoutFormsOrScriptsIsNotBlamedOnJavaScript() throws {
        do throws(WalkError) {
            _ = try Self.handler().handle(Self.page("<p>Service unavailable</p>"), at: "https://as.example/login")
            Issue.record("no error")
        } catch {
            #expect(error == .noFormToFill(title: nil, forms: 0, .page("<p>Service unavailable</p>", html: true), at: "https://as.example/login"),
                    "\(error)")
        }
    }

    @Test func realFormWithANoscriptWarningAndScriptsIsFilled() throws {
        let html = #"<noscript><div class="alert">JavaScript is disabled</div></noscript><script src="/x.js"></script><form method="post" action="/login"><input name="username"><button>Sign in</button></form>"#
        guard case .submit(let request) = try Self.handler().handle(Self.page(html), at: "https://as.example/login") else {
            Issue.record("not submitted")
            return
        }
        #expect(request.url == "https://as.example/login")
    }
}
