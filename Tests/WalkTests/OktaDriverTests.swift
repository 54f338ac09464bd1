import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The Okta driver's decisions on scripted answers shaped like Okta's
/// (Fixtures/server/replicas/okta.md): which API it picks, what it sends,
/// and the exact error for each way a login stops. The replica run by the
/// end-to-end tests (OktaReplicaTests) checks that a server accepts it.
struct OktaDriverTests {
    static let org = "https://org.example"
    static let page = org + "/login/login.htm"
    static let authorize = org + "/oauth2/default/v1/authorize"
    static let first = HTTPRequest(method: .get, url: authorize + "?client_id=app&state=" + ProviderScript.state)
    static let stateToken = "02abc-def"
    static let form = [NameValue("username", "alice"), NameValue("password", "hunter2-pw")]

    /// The widget's page as the org renders it: every string JS-escaped.
    static func widget(_ token: String? = stateToken, shape: String = "oktaData") -> HTTPResponse {
        let escaped = (token ?? "").replacingOccurrences(of: "-", with: "\\x2D")
        let config = shape == "var"
            ? "var stateToken = '\(escaped)';\nvar baseUrl = 'https\\x3A\\x2F\\x2Forg.example';"
            : #"var oktaData = {"redirectUri":"https\x3A\x2F\x2Forg.example\x2Fapp","signIn":{"baseUrl":"https\x3A\x2F\x2Forg.example","stateToken":"\#(escaped)"}};"#
        return ProviderScript.html("<html><head><script src=\"/js/okta-sign-in.min.js\"></script></head><body><div id=\"okta-login-container\"></div><script>\(config)</script></body></html>")
    }

    // MARK: - Recognition and the page

    @Test(arguments: [
        (widget().text, true), (widget(shape: "var").text, true),
        ("<html><script>var config = OktaUtil.getSignInWidgetConfig();</script></html>", false),
        ("<html><script>var stateToken = 'abc'; startMyOwnApp();</script></html>", false),
        ("<html><form><input name=username></form></html>", false),
    ])
    func recognisesTheWidgetsConfiguration(html: String, expected: Bool) {
        let page = DriverPage(request: HTTPRequest(method: .get, url: Self.page), response: ProviderScript.html(html), parsed: ParsedPage(ProviderScript.html(html)))
        #expect(OktaDriver().recognises(page) == expected)
    }

    @Test(arguments: ["oktaData", "var"])
    func readsTheStateTokenUnescapedAndTheOrgsBase(shape: String) throws {
        let response = Self.widget(shape: shape)
        let page = DriverPage(request: HTTPRequest(method: .get, url: Self.page), response: response, parsed: ParsedPage(response))
        let signIn = try #require(OktaSignInPage(page))
        #expect(signIn.stateToken == Self.stateToken)
        #expect(signIn.org == Self.org)
    }

    @Test(arguments: [
        ("https://org.example/t/r/okta/login/login.htm?fromURI=x", "https://org.example/t/r/okta"),
        ("https://org.example/oauth2/default/v1/authorize", "https://org.example"),
        ("https://org.example:8443/", "https://org.example:8443"),
    ])
    func anOrgWithoutAConfiguredBaseIsWhereItsPagesLive(pageURL: String, org: String) {
        #expect(OktaSignInPage.org(configured: nil, pageURL: pageURL) == org)
        #expect(OktaSignInPage.org(configured: "javascript:alert(1)", pageURL: pageURL) == org)
    }

    // MARK: - Classic

    static func classic(authn: [ProviderScript.Answer], verify: [ProviderScript.Answer] = []) -> ProviderScript {
        ProviderScript([
            authorize: [{ _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", page)]) }, { _ in ProviderScript.done }],
            page: [{ _ in widget() }],
            org + "/idp/idx/introspect": [{ _ in ProviderScript.json(404, #"{"errorCode":"E0000007","errorSummary":"Not found: Resource not found: idp/idx/introspect"}"#) }],
            org + "/api/v1/authn": authn,
            org + "/api/v1/authn/factors/uftgoogle/verify": verify,
            org + "/api/v1/authn/factors/ostokta/verify": verify,
        ])
    }

    static let success: ProviderScript.Answer = { _ in ProviderScript.json(200, #"{"status":"SUCCESS","sessionToken":"20111sess-ionTok3n","expiresAt":"x"}"#) }

    static func factor(_ id: String, _ type: String, _ provider: String) -> String {
        #"{"id":"\#(id)","factorType":"\#(type)","provider":"\#(provider)","_links":{"verify":{"href":"\#(org)/api/v1/authn/factors/\#(id)/verify"}}}"#
    }

    static func mfaRequired(_ factors: [String]) -> ProviderScript.Answer {
        { _ in ProviderScript.json(200, #"{"stateToken":"00mfa-state","status":"MFA_REQUIRED","_embedded":{"factors":[\#(factors.joined(separator: ","))]}}"#) }
    }

    @Test func classicSignsInThroughTheAuthenticationAPIAndTakesTheSessionTokenToAuthorize() throws {
        let script = Self.classic(authn: [Self.success])
        let console = CapturingConsole()
        let walker = script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org], console: console)
        #expect(try walker.walk(from: Self.first) == ProviderScript.answer)
        let sent: [String] = script.requests.map { URIReference($0.url)?.withoutQuery ?? "" }
        #expect(sent == [Self.authorize, Self.page, Self.org + "/idp/idx/introspect", Self.org + "/api/v1/authn", Self.authorize])
        let introspect = script.requests[2]
        #expect(introspect.headers.first(named: "Content-Type") == "application/ion+json; okta-version=1.0.0")
        #expect(ProviderScript.body(introspect) == .object(["stateToken": .string(Self.stateToken)]))
        let authn = script.requests[3]
        #expect(ProviderScript.body(authn) == .object(["username": .string("alice"), "password": .string("hunter2-pw")]))
        #expect(authn.credential == .filledForm)
        #expect(script.requests[4].url == Self.first.url + "&sessionToken=20111sess-ionTok3n")
        #expect(console.err.contains("* okta: no Identity Engine answer to introspect; signing in through the Classic Authentication API\n"))
        #expect(console.err.contains("* okta: primary authentication (/api/v1/authn)\n"))
        for secret in ["hunter2-pw", "20111sess-ionTok3n", Self.stateToken] { #expect(!console.err.contains(secret), "\(secret) in the trace") }
    }

    @Test func aPOSTAuthorizationRequestTakesTheSessionTokenInItsBody() throws {
        let script = Self.classic(authn: [Self.success])
        let post = HTTPRequest.form(url: Self.authorize, fields: [("client_id", "app"), ("state", ProviderScript.state)])
        #expect(try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: post) == ProviderScript.answer)
        let again = try #require(script.requests.last)
        #expect(again.method == .post && again.url == Self.authorize)
        #expect(ProviderScript.form(again) == ["client_id": "app", "state": ProviderScript.state, "sessionToken": "20111sess-ionTok3n"])
    }

    @Test func theGoogleTOTPFactorIsTriedFirstAndASecondDeviceAfterIt() throws {
        let wrong: ProviderScript.Answer = { _ in
            ProviderScript.json(403, #"{"errorCode":"E0000068","errorSummary":"Invalid Passcode/Answer","errorCauses":[{"errorSummary":"Your passcode doesn't match our records. Please try again."}]}"#)
        }
        let script = ProviderScript([
            Self.authorize: [{ _ in Self.widget() }, { _ in ProviderScript.done }],
            Self.org + "/idp/idx/introspect": [{ _ in ProviderScript.json(404, "{}") }],
            Self.org + "/api/v1/authn": [Self.mfaRequired([Self.factor("ostokta", "token:software:totp", "OKTA"), Self.factor("uftgoogle", "token:software:totp", "GOOGLE")])],
            Self.org + "/api/v1/authn/factors/uftgoogle/verify": [wrong],
            Self.org + "/api/v1/authn/factors/ostokta/verify": [Self.success],
        ])
        let walker = script.walker(drivers: [OktaDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.org])
        #expect(try walker.walk(from: Self.first) == ProviderScript.answer)
        let verifies = script.requests.filter { $0.url.hasSuffix("/verify") }
        #expect(verifies.map(\.url) == [Self.org + "/api/v1/authn/factors/uftgoogle/verify", Self.org + "/api/v1/authn/factors/ostokta/verify"])
        #expect(verifies.allSatisfy { ProviderScript.body($0) == .object(["stateToken": .string("00mfa-state"), "passCode": .string(ProviderScript.code)]) })
    }

    @Test(arguments: [
        ([Self.factor("opfpush", "push", "OKTA")], "Okta Verify push (push)"),
        ([Self.factor("smsx", "sms", "OKTA"), Self.factor("callx", "call", "OKTA")], "an SMS code (sms) or a phone call (call)"),
    ])
    func factorsAuthcodeCannotAnswerAreNamed(factors: [String], factor: String) {
        let script = Self.classic(authn: [Self.mfaRequired(factors)])
        #expect(throws: WalkError.driver(.factorUnsupported(provider: .okta, factor: factor, at: Self.org + "/api/v1/authn"))) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.org]).walk(from: Self.first)
        }
    }


    @Test(arguments: [
        (ProviderScript.json(401, #"{"errorCode":"E0000004","errorSummary":"Authentication failed","errorCauses":[]}"#), nil as String?,
         WalkError.driver(.loginRejected(provider: .okta, text: "Authentication failed", at: org + "/api/v1/authn"))),
        (ProviderScript.json(200, #"{"status":"LOCKED_OUT","_links":{}}"#), nil,
         WalkError.driver(.loginRejected(provider: .okta, text: "the account is locked out (LOCKED_OUT)", at: org + "/api/v1/authn"))),
        (ProviderScript.json(200, #"{"stateToken":"00x-y","status":"PASSWORD_EXPIRED"}"#), nil,
         WalkError.driver(.requiredAction(provider: .okta, action: "change the password (PASSWORD_EXPIRED)", at: org + "/api/v1/authn"))),
        (ProviderScript.json(200, #"{"stateToken":"00x-y","status":"MFA_ENROLL"}"#), nil,
         WalkError.driver(.requiredAction(provider: .okta, action: "enrol a second factor the org requires (MFA_ENROLL)", at: org + "/api/v1/authn"))),
        (ProviderScript.json(200, #"{"stateToken":"00x-y","status":"MFA_REQUIRED","_embedded":{"factors":[\#(factor("uftgoogle", "token:software:totp", "GOOGLE"))]}}"#),
         #"{"errorCode":"E0000068","errorSummary":"Invalid Passcode/Answer","errorCauses":[{"errorSummary":"Your passcode doesn't match our records."}]}"#,
         WalkError.driver(.oneTimeCodeRejected(provider: .okta, text: "Invalid Passcode/Answer: Your passcode doesn't match our records.", at: org + "/api/v1/authn/factors/uftgoogle/verify"))),
        (ProviderScript.json(500, "<html>oops hunter2-pw</html>", type: "text/html"), nil,
         WalkError.driver(.pageUnknown(provider: .okta, saw: "a 500 answer of 28 bytes of text/html where JSON was expected", at: org + "/api/v1/authn"))),
    ])
    func classicStopsWithOktasOwnWords(authn: HTTPResponse, verify: String?, failure: WalkError) {
        let script = Self.classic(authn: [{ _ in authn }], verify: [{ _ in ProviderScript.json(403, verify ?? "{}") }])
        #expect(throws: failure) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.org]).walk(from: Self.first)
        }
    }

    @Test func aTOTPFactorWithoutASeedAsksForOne() {
        let script = Self.classic(authn: [Self.mfaRequired([Self.factor("uftgoogle", "token:software:totp", "GOOGLE")])])
        #expect(throws: WalkError.driver(.oneTimeCodeNeeded(provider: .okta, at: Self.org + "/api/v1/authn"))) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: Self.first)
        }
        #expect(script.requests(to: Self.org + "/api/v1/authn/factors/uftgoogle/verify").isEmpty)
    }

    @Test func thePasswordGoesOnlyToATrustedOrg() {
        let script = Self.classic(authn: [Self.success])
        #expect(throws: WalkError.self) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: ["https://other.example"]).walk(from: Self.first)
        }
        #expect(script.requests(to: Self.org + "/api/v1/authn").isEmpty)
    }

    // MARK: - Identity Engine

    static let ion = "application/ion+json; okta-version=1.0.0"

    /// An IDX answer: the state handle, the remediations, and extra members.
    static func idxResponse(_ remediations: [String], _ extra: String = "", status: Int = 200) -> HTTPResponse {
        let body = #"{"version":"1.0.0","stateHandle":"02handle-1","remediation":{"type":"array","value":[\#(remediations.joined(separator: ","))]}\#(extra)}"#
        return ProviderScript.json(status, body, type: ion)
    }

    static func idx(_ remediations: [String], _ extra: String = "", status: Int = 200) -> ProviderScript.Answer {
        let response = idxResponse(remediations, extra, status: status)
        return { _ in response }
    }

    static func remediation(_ name: String, _ path: String, _ values: String, relatesTo: String? = nil) -> String {
        let relation = relatesTo.map { #","relatesTo":["\#($0)"]"# } ?? ""
        return #"{"name":"\#(name)","href":"\#(org)/idp/idx/\#(path)","method":"POST","accepts":"application/json; okta-version=1.0.0","value":[\#(values)]\#(relation)}"#
    }

    static let identify = remediation("identify", "identify", #"{"name":"identifier","label":"Username"},{"name":"rememberMe","type":"boolean"}"#)
    static let passwordChallenge = remediation("challenge-authenticator", "challenge/answer",
                                               #"{"name":"credentials","form":{"value":[{"name":"passcode","secret":true}]}}"#, relatesTo: "$.currentAuthenticatorEnrollment")
    static let passwordCurrent = #","currentAuthenticatorEnrollment":{"type":"object","value":{"type":"password","key":"okta_password","id":"autpwd","methods":[{"type":"password"}]}}"#
    static let successLink = #","success":{"name":"success-redirect","href":"\#(org)/login/token/redirect?stateToken=02handle-1"}"#

    static func engine(_ steps: [String: [ProviderScript.Answer]]) -> ProviderScript {
        var routes: [String: [ProviderScript.Answer]] = [
            authorize: [{ _ in widget() }],
            org + "/idp/idx/introspect": [idx([identify])],
            org + "/login/token/redirect": [{ _ in ProviderScript.done }],
        ]
        for (path, answers) in steps { routes[org + "/idp/idx/" + path] = answers }
        return ProviderScript(routes)
    }

    @Test func identityEngineIdentifiesAnswersThePasswordAndFollowsTheSuccessLink() throws {
        let script = Self.engine([
            "identify": [Self.idx([Self.passwordChallenge], Self.passwordCurrent)],
            "challenge/answer": [Self.idx([], Self.successLink)],
        ])
        let console = CapturingConsole()
        #expect(try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org], console: console).walk(from: Self.first) == ProviderScript.answer)
        let sent: [String] = script.requests.map { URIReference($0.url)?.withoutQuery ?? "" }
        let expected: [String] = [Self.authorize, Self.org + "/idp/idx/introspect", Self.org + "/idp/idx/identify",
                                  Self.org + "/idp/idx/challenge/answer", Self.org + "/login/token/redirect"]
        #expect(sent == expected)
        let identify = script.requests[2], answer = script.requests[3]
        #expect(ProviderScript.body(identify) == .object(["identifier": .string("alice"), "stateHandle": .string("02handle-1")]))
        #expect(ProviderScript.body(answer) == .object(["credentials": .object(["passcode": .string("hunter2-pw")]), "stateHandle": .string("02handle-1")]))
        #expect(identify.headers.first(named: "Content-Type") == "application/json")
        #expect(identify.headers.first(named: "Accept") == "application/json; okta-version=1.0.0")
        #expect([identify, answer].allSatisfy { $0.credential == .filledForm })
        #expect(console.err.contains("* okta: identify (username)\n> POST"))
        #expect(console.err.contains("* okta: challenge-authenticator (password)\n"))
        for secret in ["hunter2-pw", "02handle-1", Self.stateToken] { #expect(!console.err.contains(secret), "\(secret) in the trace") }
    }

    @Test func identifyTakesThePasswordWhereTheOrgAsksForItThere() throws {
        let identify = Self.remediation("identify", "identify",
                                        #"{"name":"identifier"},{"name":"credentials","type":"object","form":{"value":[{"name":"passcode"}]}}"#)
        let routes = ProviderScript([
            Self.authorize: [{ _ in Self.widget() }],
            Self.org + "/idp/idx/introspect": [Self.idx([identify])],
            Self.org + "/idp/idx/identify": [Self.idx([], Self.successLink)],
            Self.org + "/login/token/redirect": [{ _ in ProviderScript.done }],
        ])
        #expect(try routes.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: Self.first) == ProviderScript.answer)
        #expect(ProviderScript.body(routes.requests(to: Self.org + "/idp/idx/identify")[0])
                == .object(["identifier": .string("alice"), "credentials": .object(["passcode": .string("hunter2-pw")]), "stateHandle": .string("02handle-1")]))
    }

    static let enrollments = #","authenticatorEnrollments":{"type":"array","value":[{"type":"app","key":"okta_verify","id":"autverify","methods":[{"type":"totp"}]},{"type":"app","key":"google_otp","id":"autgoogle","methods":[{"type":"otp"}]}]}"#
    static let select = remediation("select-authenticator-authenticate", "challenge", #"{"name":"authenticator","type":"object","options":[{"label":"Okta Verify","value":{"form":{"value":[{"name":"id","value":"autverify"},{"name":"methodType","value":"totp"}]}},"relatesTo":"$.authenticatorEnrollments.value[0]"},{"label":"Google Authenticator","value":{"form":{"value":[{"name":"id","value":"autgoogle"},{"name":"methodType","value":"otp"}]}},"relatesTo":"$.authenticatorEnrollments.value[1]"}]}"#)

    static func codeStep(_ key: String, field: String) -> ProviderScript.Answer {
        idx([remediation("challenge-authenticator", "challenge/answer", #"{"name":"credentials","form":{"value":[{"name":"\#(field)"}]}}"#,
                         relatesTo: "$.currentAuthenticator"), select],
            #","currentAuthenticator":{"type":"object","value":{"type":"app","key":"\#(key)","id":"x","methods":[{"type":"otp"}]}}"# + enrollments)
    }

    @Test func severalTOTPAuthenticatorsGoogleFirstThenTheNextWhenTheCodeIsTurnedDown() throws {
        let wrong = Self.idx([Self.remediation("challenge-authenticator", "challenge/answer", #"{"name":"credentials","form":{"value":[{"name":"passcode","messages":{"type":"array","value":[{"message":"Your code doesn't match our records. Please try again.","class":"ERROR"}]}}]}}"#), Self.select],
                             #","currentAuthenticator":{"type":"object","value":{"type":"app","key":"google_otp","id":"autgoogle","methods":[{"type":"otp"}]}}"# + Self.enrollments, status: 403)
        let script = Self.engine([
            "identify": [Self.idx([Self.passwordChallenge], Self.passwordCurrent)],
            "challenge/answer": [Self.idx([Self.select], Self.enrollments), wrong, Self.idx([], Self.successLink)],
            "challenge": [Self.codeStep("google_otp", field: "passcode"), Self.codeStep("okta_verify", field: "totp")],
        ])
        #expect(try script.walker(drivers: [OktaDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.org]).walk(from: Self.first)
                == ProviderScript.answer)
        let choices = script.requests(to: Self.org + "/idp/idx/challenge").map { ProviderScript.body($0)?["authenticator"] }
        #expect(choices == [.object(["id": .string("autgoogle"), "methodType": .string("otp")]), .object(["id": .string("autverify"), "methodType": .string("totp")])])
        let answers = script.requests(to: Self.org + "/idp/idx/challenge/answer").compactMap { ProviderScript.body($0)?["credentials"] }
        #expect(answers == [.object(["passcode": .string("hunter2-pw")]), .object(["passcode": .string(ProviderScript.code)]),
                            .object(["totp": .string(ProviderScript.code)])])
    }


    @Test(arguments: [
        // Wrong password: Okta's message, 403.
        (idxResponse([passwordChallenge], #","messages":{"type":"array","value":[{"message":"Password is incorrect","i18n":{"key":"incorrectPassword"},"class":"ERROR"}]}"# + passwordCurrent, status: 403),
         WalkError.driver(.loginRejected(provider: .okta, text: "Password is incorrect", at: org + "/idp/idx/challenge/answer"))),
        // A locked user: terminal, no remediation.
        (ProviderScript.json(401, #"{"version":"1.0.0","messages":{"type":"array","value":[{"message":"Authentication failed","class":"ERROR"}]}}"#, type: ion),
         WalkError.driver(.loginRejected(provider: .okta, text: "Authentication failed", at: org + "/idp/idx/challenge/answer"))),
        // Push only.
        (idxResponse([remediation("challenge-poll", "challenge/poll", "", relatesTo: "$.currentAuthenticator")],
             #","currentAuthenticator":{"type":"object","value":{"type":"app","key":"okta_verify","id":"autverify","methods":[{"type":"push"}]}}"#),
         WalkError.driver(.factorUnsupported(provider: .okta, factor: "Okta Verify push (okta_verify, push)", at: org + "/idp/idx/challenge/answer"))),
        // A phone: SMS or voice.
        (idxResponse([remediation("authenticator-verification-data", "challenge", #"{"name":"authenticator","form":{"value":[{"name":"id","value":"autphone"},{"name":"methodType","options":[{"value":"sms"},{"value":"voice"}]}]}}"#, relatesTo: "$.currentAuthenticatorEnrollment")],
             #","currentAuthenticatorEnrollment":{"type":"object","value":{"type":"phone","key":"phone_number","id":"autphone","methods":[{"type":"sms"},{"type":"voice"}]}}"#),
         WalkError.driver(.factorUnsupported(provider: .okta, factor: "an SMS code (phone_number, sms) or a phone call (phone_number, voice)", at: org + "/idp/idx/challenge/answer"))),
        // An expired password.
        (idxResponse([remediation("reenroll-authenticator", "challenge/answer", #"{"name":"credentials","form":{"value":[{"name":"passcode"}]}}"#)]),
         WalkError.driver(.requiredAction(provider: .okta, action: "change the expired password (reenroll-authenticator)", at: org + "/idp/idx/challenge/answer"))),
        // Something new.
        (idxResponse([remediation("device-assurance", "x", "")]),
         WalkError.driver(.pageUnknown(provider: .okta, saw: "an Identity Engine answer offering device-assurance", at: org + "/idp/idx/challenge/answer"))),
    ])
    func identityEngineStopsWithOktasOwnWords(afterPassword: HTTPResponse, failure: WalkError) {
        let script = Self.engine([
            "identify": [Self.idx([Self.passwordChallenge], Self.passwordCurrent)],
            "challenge/answer": [{ _ in afterPassword }],
        ])
        #expect(throws: failure) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.org]).walk(from: Self.first)
        }
    }

    @Test func anUnknownUserAtIdentifyIsOktasText() {
        let script = Self.engine(["identify": [Self.idx([Self.identify], #","messages":{"type":"array","value":[{"message":"There is no account with the Username bob.","class":"INFO"}]}"#, status: 400)]])
        #expect(throws: WalkError.driver(.loginRejected(provider: .okta, text: "There is no account with the Username bob.", at: Self.org + "/idp/idx/identify"))) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: Self.first)
        }
    }

    /// Issue 31 item 1 for drivers: a `--form` name the driver never asked
    /// for is named beside the names it did ask for (DriverSession.askedNames);
    /// the generic `username`/`password` a driver always takes are not.
    @Test func aFormNameTheDriverNeverAskedForIsNamed() {
        let script = Self.engine(["identify": [Self.idx([Self.identify], #","messages":{"type":"array","value":[{"message":"There is no account with the Username bob.","class":"INFO"}]}"#, status: 400)]])
        let rejected = WalkError.driver(.loginRejected(provider: .okta, text: "There is no account with the Username bob.", at: Self.org + "/idp/idx/identify"))
        #expect(throws: WalkError.unmatchedFormNames(["user"], fields: ["identifier", "username"], rejected)) {
            try script.walker(drivers: [OktaDriver()], form: Self.form + [NameValue("user", "bob")], trusted: [Self.org]).walk(from: Self.first)
        }
    }

    @Test func aTOTPAuthenticatorToSelectWithoutASeedAsksForOne() {
        let script = Self.engine([
            "identify": [Self.idx([Self.passwordChallenge], Self.passwordCurrent)],
            "challenge/answer": [Self.idx([Self.select], Self.enrollments)],
        ])
        #expect(throws: WalkError.driver(.oneTimeCodeNeeded(provider: .okta, at: Self.org + "/idp/idx/challenge/answer"))) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: Self.first)
        }
    }

    @Test func anExpiredTransactionAtIntrospectIsNamedNotCalledARejection() {
        let script = ProviderScript([
            Self.authorize: [{ _ in Self.widget() }],
            Self.org + "/idp/idx/introspect": [{ _ in ProviderScript.json(401, #"{"version":"1.0.0","messages":{"type":"array","value":[{"message":"You have been logged out due to inactivity.","class":"ERROR"}]}}"#, type: Self.ion) }],
        ])
        #expect(throws: WalkError.driver(.pageUnknown(provider: .okta, saw: "an Identity Engine error (401): You have been logged out due to inactivity.", at: Self.org + "/idp/idx/introspect"))) {
            try script.walker(drivers: [OktaDriver()], form: Self.form, trusted: [Self.org]).walk(from: Self.first)
        }
    }
}
