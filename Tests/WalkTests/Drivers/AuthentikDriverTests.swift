import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The authentik driver's decisions on scripted executor answers: its
/// recognition, the executor URL, what it answers each stage with, and the
/// exact error where it stops (the replica: EndToEndTests/AuthentikDriverTests.swift).
struct AuthentikDriverTests {
    static let root = "https://ak.example"
    static let redirect = "http://127.0.0.1:8765/cb"
    static let flowPage = root + "/if/flow/login/?next=%2Fapplication%2Fo%2Fauthorize%2F%3Fclient_id%3Dc1%26state%3Ds1"
    static let executor = root + "/api/v3/flows/executor/login/?query=next%3D%252Fapplication%252Fo%252Fauthorize%252F%253Fclient_id%253Dc1%2526state%253Ds1"
    static let html = #"<html><body><ak-flow-executor slug="login"><ak-loading></ak-loading></ak-flow-executor></body></html>"#

    static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(text.utf8))
    }

    static func challenge(_ component: String, _ rest: String = "") -> String {
        #"{"flow_info":{"title":"Welcome"},"component":"\#(component)"\#(rest.isEmpty ? "" : "," + rest)}"#
    }

    /// An executor that answers GET with `challenges[0]` and each POST with the next one.
    final class Executor: @unchecked Sendable {
        var challenges: [String]
        private(set) var posted: [String] = []
        var transport: ScriptedTransport!

        init(_ challenges: [String]) {
            self.challenges = challenges
            transport = ScriptedTransport { [unowned self] request in
                switch URIReference(request.url)?.withoutQuery {
                case AuthentikDriverTests.root + "/application/o/authorize/":
                    return HTTPResponse(status: 302, headers: [HTTPHeader("Location", AuthentikDriverTests.flowPage)])
                case AuthentikDriverTests.root + "/if/flow/login/":
                    return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html"), HTTPHeader("Set-Cookie", "authentik_csrf=csrf-value-0123; Path=/")],
                                        body: Array(AuthentikDriverTests.html.utf8))
                case AuthentikDriverTests.root + "/api/v3/flows/executor/login/":
                    if request.method == .post {
                        self.posted.append(request.body.map { String(decoding: $0, as: UTF8.self) } ?? "")
                        self.challenges.removeFirst()
                    }
                    return AuthentikDriverTests.json(self.challenges.first ?? "{}")
                default: return HTTPResponse(status: 404)
                }
            }
        }
    }

    static func walker(_ transport: ScriptedTransport, totp: Bool = false, console: CapturingConsole = CapturingConsole()) -> Walker {
        let form = [NameValue("username", "alice"), NameValue("password", "wonderland")]
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: true, redactor: redactor, console: console, names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        client.adapters.append(OriginPolicy(trusting: [root], userHeaders: [], trace: trace))
        let walker = Walker(client: client, target: RedirectTarget(URIReference(redirect)!), maxHops: 20, formValues: form, submit: nil, state: "s1")
        if totp { walker.pages.codes = OneTimeCodes(totp: try! TOTP(secret: Array("12345678901234567890".utf8)), fieldName: nil, now: { 59 }) }
        return walker
    }

    static let first = HTTPRequest(method: .get, url: root + "/application/o/authorize/?client_id=c1&state=s1")

    @Test func theFlowPageNamesItsExecutor() throws {
        let page = try #require(AuthentikFlowPage(url: Self.flowPage))
        #expect(page.slug == "login")
        #expect(page.executorURL == Self.executor)
        #expect(AuthentikFlowPage(url: Self.root + "/flows/-/default/authentication/") == nil)
        #expect(AuthentikFlowPage(url: Self.root + "/if/flow//") == nil)
        #expect(AuthentikFlowPage(url: "https://ak.example/auth/if/flow/x/")?.executorURL == "https://ak.example/auth/api/v3/flows/executor/x/?query=")
    }

    @Test(arguments: [
        ("?next=%2Fapplication%2Fo%2Fauthorize%2F", true),
        ("?next=%2Fapplication%2Fo%2Fauthorize%2F%3Fclient_id%3Dc1", false),
        ("?next=%2Fif%2Fuser%2F", false),
        ("", false),
    ])
    func aPostAuthorizationRequestsLostParametersAreSeen(query: String, lost: Bool) {
        #expect(AuthentikFlowPage.losesAuthorizationRequest(Self.root + "/if/flow/login/" + query) == lost)
    }

    @Test func errorTextsComeNonFieldFirst() {
        let challenge = AuthentikChallenge(fields: [
            "response_errors": .object(["password": .array([.object(["string": .string("Invalid password"), "code": .string("invalid")])]),
                                        "non_field_errors": .array([.object(["string": .string("Failed to authenticate.")])])]),
        ])
        #expect(challenge.errorTexts == ["Failed to authenticate.", "Invalid password"])
    }

    /// Identification, password, a TOTP code chosen among the devices, the
    /// consent with the CSRF header, then the flow's redirect to the
    /// redirect_uri, which the walk reads and never fetches.
    @Test func answersEachStageAndHandsTheRedirectToTheWalk() throws {
        let server = Executor([
            Self.challenge("ak-stage-identification", #""user_fields":["username"],"password_fields":false"#),
            Self.challenge("ak-stage-password"),
            Self.challenge("ak-stage-authenticator-validate", #""device_challenges":[{"device_class":"sms","device_uid":"1","challenge":{}},{"device_class":"totp","device_uid":"2","challenge":{}}]"#),
            Self.challenge("ak-stage-consent", #""token":"tok-1","permissions":[]"#),
            #"{"component":"xak-flow-redirect","to":"\#(Self.redirect)?code=c0de&state=s1"}"#,
        ])
        let console = CapturingConsole()
        let walker = Self.walker(server.transport, totp: true, console: console)
        #expect(try walker.walk(from: Self.first) == .redirect(URIReference(Self.redirect + "?code=c0de&state=s1")!))
        #expect(server.posted == [
            #"{"component":"ak-stage-identification","uid_field":"alice"}"#,
            #"{"component":"ak-stage-password","password":"wonderland"}"#,
            #"{"code":"287082","component":"ak-stage-authenticator-validate","selected_challenge":{"challenge":{},"device_class":"totp","device_uid":"2"}}"#,
            #"{"component":"ak-stage-consent","token":"tok-1"}"#,
        ])
        let posts = server.transport.requests.filter { $0.method == .post }
        #expect(posts.allSatisfy { $0.headers.first(named: "X-authentik-CSRF") == "csrf-value-0123" })
        #expect(!console.err.contains("wonderland") && !console.err.contains("287082") && !console.err.contains("csrf-value-0123"), "\(console.err)")
    }

    /// The identification stage with the password field: both in one answer.
    @Test func aMergedIdentificationSendsThePasswordToo() throws {
        let server = Executor([Self.challenge("ak-stage-identification", #""password_fields":true"#),
                               #"{"component":"xak-flow-redirect","to":"\#(Self.redirect)?code=c0de&state=s1"}"#])
        _ = try Self.walker(server.transport).walk(from: Self.first)
        #expect(server.posted == [#"{"component":"ak-stage-identification","password":"wonderland","uid_field":"alice"}"#])
        #expect(server.transport.requests.first { $0.method == .post }?.credential == .filledForm)
    }

    @Test func anAutosubmitToTheRedirectURIIsTheFormPostAnswer() throws {
        let server = Executor([Self.challenge("ak-stage-autosubmit", #""url":"\#(Self.redirect)","attrs":{"code":"c0de","state":"s1"}"#)])
        #expect(try Self.walker(server.transport).walk(from: Self.first)
            == .formPost(fields: [NameValue("code", "c0de"), NameValue("state", "s1")], page: Self.redirect))
        #expect(server.transport.requests.allSatisfy { !$0.url.hasPrefix(Self.redirect) }, "never fetched")
    }

    static let place = root + "/api/v3/flows/executor/login/"

    @Test(arguments: [
        ([Self.challenge("ak-stage-access-denied", #""error_message":"Invalid password""#)],
         DriverError.loginRejected(provider: .authentik, text: "Invalid password", at: place)),
        ([Self.challenge("ak-stage-identification"),
          Self.challenge("ak-stage-identification", #""response_errors":{"non_field_errors":[{"string":"Failed to authenticate.","code":"invalid"}]}"#)],
         .loginRejected(provider: .authentik, text: "Failed to authenticate.", at: place)),
        ([Self.challenge("ak-stage-authenticator-validate", #""device_challenges":[{"device_class":"static","device_uid":"3","challenge":{}}]"#)],
         .factorUnsupported(provider: .authentik, factor: "a recovery code", at: place)),
        ([Self.challenge("ak-stage-authenticator-validate", #""device_challenges":[{"device_class":"webauthn","device_uid":"3","challenge":{}}]"#)],
         .passkey(.noPasskey, at: place)),
        ([Self.challenge("ak-stage-prompt", #""fields":[]"#)], .pageUnknown(provider: .authentik, saw: "the stage ak-stage-prompt", at: place)),
        ([Self.challenge("ak-stage-flow-error", #""error":"Flow does not apply to current user.""#)],
         .pageUnknown(provider: .authentik, saw: "the flow failed: Flow does not apply to current user.", at: place)),
    ] as [([String], DriverError)])
    func stopsWithAuthentiksTextOrTheStageItDoesNotKnow(challenges: [String], error: DriverError) {
        let server = Executor(challenges)
        #expect(throws: WalkError.driver(error)) { try Self.walker(server.transport).walk(from: Self.first) }
    }
}
