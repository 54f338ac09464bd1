import Testing
import TestSupport
@testable import Core
@testable import HTTP

/// Credentials only to trusted origins (HTTP/OriginPolicy.swift).
struct OriginPolicyTests {
    static let headers = [HTTPHeader("Authorization", "Bearer user-token-1"), HTTPHeader("X-Tenant", "t1")]

    static func policy(_ console: CapturingConsole = CapturingConsole()) -> OriginPolicy {
        OriginPolicy(trusting: ["https://idp.example/realms/a", "http://127.0.0.1:8080/token", "HTTPS://Login.Example:443"],
                     userHeaders: headers, trace: Trace(enabled: true, redactor: Redactor(), console: console, names: .standard))
    }

    @Test(arguments: [
        ("https://idp.example/other/path?x=1", true), ("https://IDP.example:443/", true), ("https://login.example/x", true),
        ("http://127.0.0.1:8080/authorize", true),
        ("http://idp.example/", false), ("https://idp.example:8443/", false), ("http://127.0.0.2:8080/", false),
        ("http://127.0.0.1:8081/", false), ("https://evil.example/", false), ("not a url", false), ("com.app:/cb", false),
    ])
    func trust(url: String, trusted: Bool) {
        #expect(Self.policy().isTrusted(url) == trusted)
    }

    @Test func trustedOriginKeepsEverything() throws {
        var request = HTTPRequest(method: "POST", url: "https://u:p@idp.example/login", headers: Self.headers + [HTTPHeader("Accept", "x")], body: [1])
        request.credential = .filledForm
        let before = request
        try Self.policy().adapt(&request)
        #expect(request == before)
    }

    @Test func untrustedOriginLosesHeadersAndUserinfo() throws {
        let console = CapturingConsole()
        var request = HTTPRequest(method: "GET", url: "https://u:p@elsewhere.example:8443/page?q=1",
                                  headers: [HTTPHeader("Accept", "text/html")] + Self.headers + [HTTPHeader("X-Tenant", "t2")])
        try Self.policy(console).adapt(&request)
        #expect(request.url == "https://elsewhere.example:8443/page?q=1")
        #expect(request.headers == [HTTPHeader("Accept", "text/html"), HTTPHeader("X-Tenant", "t2")], "only the user's exact headers go")
        #expect(console.err == """
            * not sending the -H headers to https://elsewhere.example:8443: not a trusted origin
            * not sending the URL's user:password to https://elsewhere.example:8443: not a trusted origin

            """)
    }

    /// `@` followed by a combining mark is one Character: the cut is on bytes.
    @Test func userinfoBeforeACombiningMarkIsStripped() throws {
        var request = HTTPRequest(method: "GET", url: "https://u:p@\u{301}elsewhere.example/x")
        try Self.policy().adapt(&request)
        #expect(request.url == "https://\u{301}elsewhere.example/x")
    }

    @Test(arguments: [CarriedCredential.filledForm, .replayedBody(status: 307)])
    func credentialToUntrustedOriginIsRefused(credential: CarriedCredential) {
        var request = HTTPRequest(method: "POST", url: "http://127.0.0.2:8080/login?next=%2F", body: Array("password=x".utf8))
        request.credential = credential
        #expect(throws: HTTPError.untrustedOrigin(credential, origin: "http://127.0.0.2:8080", url: "http://127.0.0.2:8080/login")) {
            try Self.policy().adapt(&request)
        }
    }

    @Test func trustLaterAddsOrigins() throws {
        let policy = Self.policy()
        policy.trust(["https://accounts.example/o/token", "urn:not-http"])
        var request = HTTPRequest(method: "POST", url: "https://accounts.example/login")
        request.credential = .filledForm
        try policy.adapt(&request)
    }
}

extension OriginPolicy {
    /// Whether a request to `url` would be to a trusted origin: what
    /// `adapt` decides before it refuses a credential, read from its set.
    func isTrusted(_ url: String) -> Bool {
        URIReference(url)?.origin.map(trusted.contains) ?? false
    }
}
