import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The Auth0 Classic Login (Lock) driver's decisions on scripted answers
/// (Fixtures/server/replicas/auth0.md, "Classic Login"): the configuration
/// read from `window.atob`, the connection from the client file, the JSON
/// posted, the form handed to the walk, and Auth0's own words for each
/// stop — never a piece of the page's script. Auth0ClassicReplicaTests runs
/// the replica.
struct Auth0LockDriverTests {
    static let tenant = "https://tenant.example"
    static let loginPage = tenant + "/login"
    static let authorize = tenant + "/authorize"
    static let first = HTTPRequest(method: .get, url: authorize + "?client_id=app&state=" + ProviderScript.state)
    static let form = [NameValue("username", "alice"), NameValue("password", "hunter2-pw")]
    static let csrf = "csrf-S3CRET-token"

    /// The Lock page with its configuration as base64 JSON, `state` and
    /// `_csrf` nested in `internalOptions` or at the top level.
    static func lockPage(flat: Bool = false) -> HTTPResponse {
        let params = #""state":"hKFo2SBtx","_csrf":"\#(csrf)","_intstate":"deprecated","scope":"openid","response_type":"code","nonce":"n0nce""#
        let config = #"{"clientID":"app","auth0Domain":"tenant.example","auth0Tenant":"acme","callbackURL":"https://app.example/cb","clientConfigurationBaseUrl":"https://cdn.example/",\#(flat ? params : #""internalOptions":{\#(params)}"#)}"#
        let encoded = Base64URL.encodeStandard(Array(config.utf8))
        return ProviderScript.html("""
            <html><body><script src="/lock.min.js"></script><script>
            var config = JSON.parse(decodeURIComponent(escape(window.atob('\(encoded)'))));
            var lock = new Auth0Lock(config.clientID, config.auth0Domain, {});
            lock.show();
            </script></body></html>
            """)
    }

    static let client: ProviderScript.Answer = { _ in
        ProviderScript.json(200, #"Auth0.setClient({"id":"app","strategies":[{"name":"google-oauth2","connections":[{"name":"google"}]},{"name":"auth0","connections":[{"name":"Staff-DB"}]}]});"#,
                            type: "application/x-javascript")
    }
    static let callbackForm: ProviderScript.Answer = { _ in
        ProviderScript.html(#"<form method="post" name="hiddenform" action="https://tenant.example/login/callback"><input type="hidden" name="wa" value="wsignin1.0"><input type="hidden" name="wresult" value="eyJ.wres.ult"><input type="hidden" name="wctx" value="{&#34;state&#34;:&#34;hKFo2SBtx&#34;}"><noscript><input type="submit" value="Submit"></noscript></form>"#)
    }

    static func script(login: [ProviderScript.Answer], flat: Bool = false) -> ProviderScript {
        ProviderScript([
            authorize: [{ _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", loginPage + "?state=hKFo2SBtx&client=app")]) }],
            loginPage: [{ _ in lockPage(flat: flat) }],
            "https://cdn.example/client/app.js": [client],
            tenant + "/usernamepassword/login": login,
            tenant + "/login/callback": [{ _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", tenant + "/authorize/resume?state=hKFo2SBtx")]) }],
            tenant + "/authorize/resume": [{ _ in ProviderScript.done }],
        ])
    }

    @Test(arguments: [false, true])
    func postsTheCredentialsAsLockDoesAndHandsTheWalkTheFormItAnswers(flat: Bool) throws {
        let script = Self.script(login: [Self.callbackForm], flat: flat)
        let console = CapturingConsole()
        #expect(try script.walker(drivers: [Auth0LockDriver()], form: Self.form, trusted: [Self.tenant], console: console).walk(from: Self.first)
                == ProviderScript.answer)
        let sent: [String] = script.requests.map { URIReference($0.url)?.withoutQuery ?? "" }
        #expect(sent == [Self.authorize, Self.loginPage, "https://cdn.example/client/app.js", Self.tenant + "/usernamepassword/login",
                         Self.tenant + "/login/callback", Self.tenant + "/authorize/resume"])
        let login = script.requests[3]
        #expect(ProviderScript.body(login) == .object([
            "client_id": .string("app"), "connection": .string("Staff-DB"), "username": .string("alice"), "password": .string("hunter2-pw"),
            "state": .string("hKFo2SBtx"), "_csrf": .string(Self.csrf), "_intstate": .string("deprecated"), "tenant": .string("acme"),
            "redirect_uri": .string("https://app.example/cb"), "scope": .string("openid"), "response_type": .string("code"), "nonce": .string("n0nce"),
        ]))
        #expect(login.headers.first(named: "Origin") == Self.tenant)
        #expect(login.credential == .filledForm)
        #expect(ProviderScript.form(script.requests[4]) == ["wa": "wsignin1.0", "wresult": "eyJ.wres.ult", "wctx": #"{"state":"hKFo2SBtx"}"#])
        #expect(console.err.contains("* auth0: usernamepassword/login (Staff-DB)\n"))
        for secret in ["hunter2-pw", Self.csrf, "eyJ.wres.ult"] { #expect(!console.err.contains(secret), "\(secret) in the trace") }
    }

    @Test func aOneTimeCodeGoesInMfaCodeWhenAuth0AsksForIt() throws {
        let required: ProviderScript.Answer = { _ in
            ProviderScript.json(401, #"{"name":"UnauthorizedError","code":"a0.mfa_required","description":"Multifactor authentication required","statusCode":401}"#)
        }
        let script = Self.script(login: [required, Self.callbackForm])
        #expect(try script.walker(drivers: [Auth0LockDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.tenant]).walk(from: Self.first)
                == ProviderScript.answer)
        let logins = script.requests(to: Self.tenant + "/usernamepassword/login").compactMap { ProviderScript.body($0)?["mfa_code"] }
        #expect(logins == [.string(ProviderScript.code)])
    }

    static let place = tenant + "/usernamepassword/login"

    @Test(arguments: [
        (401, #"{"name":"ValidationError","code":"invalid_user_password","description":"Wrong email or password.","statusCode":401}"#,
         WalkError.driver(.loginRejected(provider: .auth0, text: "Wrong email or password.", at: place))),
        (400, #"{"name":"ValidationError","code":"invalid_user_password","description":"Wrong email or password.","statusCode":400}"#,
         WalkError.driver(.loginRejected(provider: .auth0, text: "Wrong email or password.", at: place))),
        (401, #"{"name":"UnauthorizedError","code":"unauthorized","description":"user is blocked","statusCode":401}"#,
         WalkError.driver(.loginRejected(provider: .auth0, text: "user is blocked", at: place))),
        (429, #"{"name":"AnomalyDetected","code":"too_many_attempts","description":"Your account has been blocked after multiple consecutive login attempts.","statusCode":429}"#,
         WalkError.driver(.loginRejected(provider: .auth0, text: "Your account has been blocked after multiple consecutive login attempts.", at: place))),
        (403, #"{"name":"ForbiddenError","code":"invalid_csrf","description":"Invalid CSRF token","statusCode":403}"#,
         WalkError.driver(.pageUnknown(provider: .auth0, saw: "a 403 answer with error code invalid_csrf: Invalid CSRF token", at: place))),
    ])
    func eachStopInAuth0sOwnWords(status: Int, body: String, failure: WalkError) {
        let script = Self.script(login: [{ _ in ProviderScript.json(status, body) }])
        #expect(throws: failure) {
            try script.walker(drivers: [Auth0LockDriver()], form: Self.form, trusted: [Self.tenant]).walk(from: Self.first)
        }
    }

    @Test func aCodeAuth0TurnsDownAndNoSeedAreEachNamed() {
        let required: ProviderScript.Answer = { _ in ProviderScript.json(401, #"{"code":"a0.mfa_required","description":"Multifactor authentication required"}"#) }
        let invalid: ProviderScript.Answer = { _ in ProviderScript.json(401, #"{"code":"a0.mfa_invalid_code","description":"Wrong or expired code."}"#) }
        #expect(throws: WalkError.driver(.oneTimeCodeRejected(provider: .auth0, text: "Wrong or expired code.", at: Self.place))) {
            try Self.script(login: [required, invalid]).walker(drivers: [Auth0LockDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.tenant])
                .walk(from: Self.first)
        }
        #expect(throws: WalkError.driver(.oneTimeCodeNeeded(provider: .auth0, at: Self.place))) {
            try Self.script(login: [required]).walker(drivers: [Auth0LockDriver()], form: Self.form, trusted: [Self.tenant]).walk(from: Self.first)
        }
    }

    @Test func anAnswerThatIsNeitherFormNorErrorIsNamedNotQuoted() {
        let script = Self.script(login: [{ _ in ProviderScript.json(502, "upstream said \(Self.csrf)", type: "text/plain") }])
        #expect(throws: WalkError.driver(.pageUnknown(provider: .auth0, saw: "a 502 answer of 31 bytes of text/plain", at: Self.place))) {
            try script.walker(drivers: [Auth0LockDriver()], form: Self.form, trusted: [Self.tenant]).walk(from: Self.first)
        }
    }

    @Test(arguments: [
        (lockPage().text, true),
        ("<script>var x = window.atob('bm90IGpzb24=');</script>", false),
        ("<script>var config = window.atob('eyJhIjoxfQ=='); new Auth0Lock();</script>", false),
        ("<form><input name=username><input type=password name=password></form>", false),
    ])
    func recognisesLocksConfiguration(html: String, expected: Bool) {
        let response = ProviderScript.html(html)
        #expect(Auth0LockDriver().recognises(DriverPage(request: Self.first, response: response, parsed: ParsedPage(response))) == expected)
    }
}
