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
