import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// Walker.walk returns its fallback reason as a value (Walk/WalkOutcome.swift):
/// the flow reads no state off the walker after a throw.
struct WalkOutcomeTests {
    static let authorize = "https://as.example/authorize"
    static let redirect = "http://127.0.0.1:8765/cb"
    static let form = [NameValue("username", "alice"), NameValue("password", "hunter2-pw")]

    static func walker(_ transport: ScriptedTransport) -> Walker {
        let trace = Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        return Walker(client: client, target: RedirectTarget(URIReference(redirect)!), maxHops: 10, formValues: form, submit: nil, state: "s1")
    }

    static let post = HTTPRequest.form(url: authorize, fields: [("state", "s1"), ("username", "alice"), ("password", "hunter2-pw")])

    @Test func refusalIsAReason() throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 403) }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == .fallBack(.refused(status: 403, place: Self.authorize)))
    }

    @Test func aCopiedFormValueIsAReason() throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", "/next?password=hunter2-pw&username=alice")]) }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == .fallBack(.formValueInURL(place: "https://as.example/next")))
        #expect(transport.requests.count == 1, "the URL with the password is not fetched")
    }

    @Test func deadEndBeforeCredentialsIsAReason() throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 302) }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == .fallBack(.walkFailed(.redirectWithoutLocation(status: 302, at: Self.authorize))))
    }

    /// Gitea keeps the request URI for after its login: a POST's
    /// parameters are gone when it sends the browser back.
    @Test func aRedirectToTheBareEndpointIsAReason() throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 303, headers: [HTTPHeader("Location", "/authorize")]) }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == .fallBack(.requestLost(place: Self.authorize)))
        #expect(transport.requests.count == 1, "the bare endpoint is not fetched")
        #expect(FallbackReason.requestLost(place: Self.authorize).keepsCookies, "the login's session answers the GET")
    }

    /// A login form posting to the bare endpoint: AD FS's, refused for
    /// want of the request, is a reason; one carrying the request in a
    /// field of its own (a txn) is answered, and the walk goes on.
    @Test(arguments: [(400, true), (302, false)])
    func aFormPostedToTheBareEndpointIsLostOnlyWhenRefused(status: Int, lost: Bool) throws {
        let loginPage = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(
            #"<form method="post" action="?client-request-id=9"><input name="username"><input type="password" name="password"><input type="hidden" name="txn" value="t1"><button>Sign in</button></form>"#.utf8))
        let transport = ScriptedTransport { request in
            if request.url == Self.authorize { return loginPage }
            return status == 302 ? HTTPResponse(status: 302, headers: [HTTPHeader("Location", Self.redirect + "?code=c&state=s1")]) : HTTPResponse(status: status)
        }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == (lost ? .fallBack(.requestLost(place: Self.authorize)) : .answer(.redirect(URIReference(Self.redirect + "?code=c&state=s1")!))))
        #expect(transport.requests.count == 2, "the form was sent")
    }

    @Test(arguments: [
        (HTTPRequest(method: .get, url: authorize), true),
        (HTTPRequest(method: .get, url: authorize + "?client-request-id=9"), true),
        (HTTPRequest.form(url: authorize + "?client-request-id=9", fields: [("UserName", "alice"), ("Password", "pw")]), true),
        (HTTPRequest(method: .get, url: authorize + "?client_id=app&state=s1"), false),
        (HTTPRequest.form(url: authorize, fields: [("client_id", "app"), ("username", "alice")]), false),
        (HTTPRequest(method: .get, url: "https://as.example/login"), false),
        (HTTPRequest(method: .get, url: "https://other.example/authorize"), false),
    ])
    func aHopWithoutClientIDToTheEndpointIsLost(request: HTTPRequest, lost: Bool) {
        #expect(LostRequest.isLost(request, first: Self.post) == lost)
        #expect(!LostRequest.isLost(request, first: HTTPRequest(method: .get, url: Self.authorize + "?client_id=app")), "a GET request is never lost")
    }

    /// Without a leak guard (a GET request) the same walks throw what the
    /// reason would have said.
    @Test(arguments: [
        (HTTPResponse(status: 403), WalkError.unexpectedStatus(403, .nothing, at: authorize)),
        (HTTPResponse(status: 302), .redirectWithoutLocation(status: 302, at: authorize)),
    ])
    func withoutFallbackTheFailureIsThrown(response: HTTPResponse, failure: WalkError) {
        let transport = ScriptedTransport { _ in response }
        #expect(throws: failure) { try Self.walker(transport).walk(from: HTTPRequest(method: .get, url: Self.authorize + "?state=s1")) }
    }

    @Test(arguments: [
        (FallbackReason.refused(status: 405, place: authorize), WalkError.postRefused(status: 405, at: authorize)),
        (.formValueInURL(place: "https://as.example/next"), .formValueInURL(at: "https://as.example/next")),
        (.walkFailed(.hopLimit(3, at: "y")), .hopLimit(3, at: "y")),
        (.requestLost(place: authorize), .requestLost(at: authorize)),
    ])
    func eachReasonSaysItsFailure(reason: FallbackReason, failure: WalkError) {
        #expect(reason.failure == failure)
    }

    @Test func anAnswerIsAnAnswer() throws {
        let transport = ScriptedTransport { _ in HTTPResponse(status: 302, headers: [HTTPHeader("Location", Self.redirect + "?code=c&state=s1")]) }
        let outcome = try Self.walker(transport).walk(from: Self.post, fallingBack: CredentialLeak(Self.form))
        #expect(outcome == .answer(.redirect(URIReference(Self.redirect + "?code=c&state=s1")!)))
    }
}
