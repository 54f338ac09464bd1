import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// What the walk reads as progress, a rejection or a page it cannot show,
/// on the shapes of servers the generic walk was proven on (Auth0's
/// Universal Login, GitLab, an Auth0 Lock page): each in one scripted run.
struct WalkProgressTests {
    static let redirect = "http://127.0.0.1:8765/cb"
    static let authorize = "https://as.example/authorize?client_id=app&state=s1"

    static func html(_ body: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(body.utf8))
    }

    static func redirect(_ location: String, status: Int = 302) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Location", location)])
    }

    static func walker(_ transport: ScriptedTransport, form: [NameValue], codes: OneTimeCodes? = nil) -> Walker {
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: false, redactor: redactor, console: CapturingConsole(), names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        let walker = Walker(client: client, target: RedirectTarget(URIReference(redirect)!), maxHops: 10, formValues: form, submit: nil, state: "s1")
        walker.codes = codes
        return walker
    }

    /// Auth0: after the OTP page, `/authorize/resume` comes round with the
    /// same URL and cookies as after the password, but the transaction moved
    /// on. A form sent in between is progress, not a loop.
    @Test func theSameURLAfterAFormIsTheNextStep() throws {
        let otpDone = Lock(false)
        let transport = ScriptedTransport { request in
            switch URIReference(request.url)?.path {
            case "/authorize": return Self.redirect("/u/login?state=t1")
            case "/u/login":
                if request.method == .post { return Self.redirect("/authorize/resume?state=t1") }
                return Self.html(#"<form method="post"><input name="username"><input type="password" name="password"><button name="action" value="default">Continue</button></form>"#)
            case "/authorize/resume":
                return otpDone.withLock { $0 } ? Self.redirect(Self.redirect + "?code=c1&state=s1") : Self.redirect("/u/mfa-otp-challenge?state=t1")
            case "/u/mfa-otp-challenge":
                if request.method == .post {
                    otpDone.withLock { $0 = true }
                    return Self.redirect("/authorize/resume?state=t1")
                }
                return Self.html(#"<form method="post"><input name="code" autocomplete="one-time-code"><button name="action" value="default">Continue</button></form>"#)
            default: return HTTPResponse(status: 404)
            }
        }
        let codes = OneTimeCodes(totp: try TOTP(secret: Array("12345678901234567890".utf8)), fieldName: nil, now: { 59 })
        let walker = Self.walker(transport, form: [NameValue("username", "carol"), NameValue("password", "pw-1")], codes: codes)
        let answer = try walker.walk(from: HTTPRequest(method: .get, url: Self.authorize))
        #expect(answer == .redirect(URIReference(Self.redirect + "?code=c1&state=s1")!))
        #expect(transport.requests.filter { $0.url.hasSuffix("/authorize/resume?state=t1") }.count == 2)
    }

    /// A pure redirect cycle is still a loop.
    @Test func aCycleOfRedirectsIsStillALoop() {
        let transport = ScriptedTransport { request in
            URIReference(request.url)?.path == "/a" ? Self.redirect("/b") : Self.redirect("/a")
        }
        #expect(throws: WalkError.redirectLoop(method: .get, at: "https://as.example/a")) {
            try Self.walker(transport, form: []).walk(from: HTTPRequest(method: .get, url: "https://as.example/a"))
        }
    }

    /// Auth0 answers a wrong password with the form again and status 400;
    /// GitLab with a redirect to the same sign-in page and a flash.
    @Test(arguments: [
        (Self.html(#"<form method="post"><div class="input-wrapper ulp-error"><label for="password">Password</label><input type="password" name="password"><span class="ulp-input-error-message">Wrong username or password</span></div><button name="action" value="default">Continue</button></form>"#, status: 400),
         "Wrong username or password"),
        (Self.redirect("/login"), "Invalid login or password."),
    ])
    func aLoginFormBackIsTheRejection(answer: HTTPResponse, text: String) {
        let tries = Lock(0)
        let transport = ScriptedTransport { request in
            if request.method == .post { return answer }
            let flash = tries.withLock { count in
                defer { count += 1 }
                return count == 0 ? "" : #"<div class="gl-alert flash-alert gl-alert-danger">Invalid login or password.</div>"#
            }
            return Self.html(#"\#(flash)<form method="post" action="/login"><input name="user"><input type="password" name="password"><button>Sign in</button></form>"#)
        }
        #expect(throws: WalkError.loginRejected(says: text, status: nil, oneTimeCode: false, at: "https://as.example/login")) {
            try Self.walker(transport, form: [NameValue("user", "alice"), NameValue("password", "wrong-pw")])
                .walk(from: HTTPRequest(method: .get, url: "https://as.example/login"))
        }
    }

    /// After the credentials, a page of text without a form is the
    /// server's answer (Gitea's "Sign in Prohibited"), not a script page.
    @Test func aTextPageAfterTheLoginIsQuotedNotBlamedOnJavaScript() {
        let transport = ScriptedTransport { request in
            if request.method == .post {
                return Self.html(#"<html><head><title>Sign in Prohibited</title><script src="/assets/index.js"></script></head><body><h2>Sign in Prohibited</h2><p>Your account is prohibited from signing in.</p></body></html>"#)
            }
            return Self.html(#"<form method="post" action="/login"><input name="user"><input type="password" name="password"><button>Sign in</button></form>"#)
        }
        #expect(throws: WalkError.noFormToFill(title: "Sign in Prohibited", forms: 0, .page(Self.prohibitedText, html: true), at: "https://as.example/login")) {
            try Self.walker(transport, form: [NameValue("user", "mallory"), NameValue("password", "pw-2")])
                .walk(from: HTTPRequest(method: .get, url: "https://as.example/login"))
        }
    }

    static let prohibitedText = "<h2>Sign in Prohibited</h2><p>Your account is prohibited from signing in.</p>"
}

/// Dex's connector list: no form, links that carry the request on.
struct ContinuationLinkTests {
    static let page = #"""
    <div class="theme-panel"><h2 class="theme-heading">Log in to Dex</h2>
    <a href="/dex/auth/local?client_id=app&amp;state=s1" class="dex-btn"><span class="dex-btn-text">Log in with Email</span></a>
    <a href="/dex/auth/ldap?client_id=app&amp;state=s1#x" class="dex-btn"><span>Log in with LDAP</span></a>
    <a href="https://elsewhere.example/auth?state=s1">Elsewhere</a>
    <a href="/help">Help</a></div>
    """#

    @Test func linksCarryingTheStateOnThePagesOriginAreTheWaysOn() {
        let links = ContinuationLinks.find(in: Self.page, base: URIReference("https://dex.example/dex/auth?client_id=app&state=s1")!, state: "s1")
        #expect(links == [ContinuationLinks.Link(url: "https://dex.example/dex/auth/local?client_id=app&state=s1", text: "Log in with Email"),
                          ContinuationLinks.Link(url: "https://dex.example/dex/auth/ldap?client_id=app&state=s1", text: "Log in with LDAP")])
        #expect(ContinuationLinks.find(in: Self.page, base: URIReference("https://dex.example/dex/auth")!, state: "s2").isEmpty)
    }

    @Test func theWalkFollowsTheFirst() throws {
        let transport = ScriptedTransport { request in
            switch URIReference(request.url)?.path {
            case "/dex/auth": return WalkProgressTests.html(Self.page)
            case "/dex/auth/local": return WalkProgressTests.redirect(WalkProgressTests.redirect + "?code=c1&state=s1")
            default: return HTTPResponse(status: 404)
            }
        }
        let answer = try WalkProgressTests.walker(transport, form: []).walk(from: HTTPRequest(method: .get, url: "https://dex.example/dex/auth?client_id=app&state=s1"))
        #expect(answer == .redirect(URIReference(WalkProgressTests.redirect + "?code=c1&state=s1")!))
    }
}
