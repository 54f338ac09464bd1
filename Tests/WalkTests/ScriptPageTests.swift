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

    /// Keycloak's WebAuthn page: its only POST form has six empty hidden
    /// fields a script fills; posted as it is it would send blanks.
    @Test func aFormOnlyAScriptFillsIsNeverPostedBlank() {
        let html = #"""
        <form id="webauth" action="/login-actions/authenticate?session_code=c1" method="post"><input type="hidden" id="clientDataJSON" name="clientDataJSON"/><input type="hidden" id="authenticatorData" name="authenticatorData"/><input type="hidden" id="signature" name="signature"/><input type="hidden" id="credentialId" name="credentialId"/><input type="hidden" id="userHandle" name="userHandle"/><input type="hidden" id="error" name="error"/></form>
        <form id="authn_select"><input type="hidden" name="authn_use_chk" value="cred1"/></form>
        <input id="authenticateWebAuthnButton" type="button" value="Sign in with Passkey"/><script type="module">authenticateByWebAuthn(input);</script>
        """#
        #expect(throws: ScriptPage.failure(at: "https://as.example/login-actions/authenticate")) {
            _ = try Self.handler().handle(Self.page(html), at: "https://as.example/login-actions/authenticate?execution=e1")
        }
    }

    /// A self-submitting form carries what it passes on: it is sent.
    @Test func aSelfSubmittingFormWithValuesIsSent() throws {
        let html = #"<body onload="document.forms[0].submit()"><form method="post" action="/acs"><input type="hidden" name="SAMLResponse" value="PHNhbWw+"/></form><script>x()</script></body>"#
        guard case .submit(let request) = try Self.handler().handle(Self.page(html), at: "https://as.example/sso") else {
            Issue.record("not submitted")
            return
        }
        #expect(request.url == "https://as.example/acs")
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "SAMLResponse=PHNhbWw%2B")
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
