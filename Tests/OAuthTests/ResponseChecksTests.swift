import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct ResponseChecksTests {
    static let place = "http://127.0.0.1:8765/cb"
    static let checks = ResponseChecks(expectedState: "our-state", expectedIssuer: "https://idp.example", issRequired: false)

    @Test(arguments: [
        (AuthorizationResponse(code: "c1", state: "our-state"), nil, false, "c1"),
        (AuthorizationResponse(code: "c2", state: "our-state", iss: "https://idp.example"), "https://idp.example", false, "c2"),
        (AuthorizationResponse(code: "c3", state: "our-state", iss: "https://idp.example"), "https://idp.example", true, "c3"),
        (AuthorizationResponse(code: "c4", state: "our-state"), "https://idp.example", false, "c4"),
        (AuthorizationResponse(code: "c5", state: "our-state", iss: "https://anything"), nil, true, "c5"),
    ] as [(AuthorizationResponse, String?, Bool, String)])
    func passes(response: AuthorizationResponse, issuer: String?, required: Bool, code: String) throws {
        let checks = ResponseChecks(expectedState: "our-state", expectedIssuer: issuer, issRequired: required)
        #expect(try checks.verify(response, at: Self.place) == code)
    }

    /// Each refusal as a value; its words and exit code are the CLI's
    /// (Tests/CLITests/ErrorReportTests.swift).
    static let failures: [(AuthorizationResponse, Bool, OAuthError)] = [
        (AuthorizationResponse(state: "our-state", error: "access_denied", errorDescription: "User said no"), false,
         .authorizationServer(error: "access_denied", description: "User said no", at: place)),
        // State before error: an error nobody can tie to this request is refused, its text unshown.
        (AuthorizationResponse(error: "invalid_scope", errorDescription: "Call +1 555 0100 now"), false,
         .noState(errorAnswer: true, at: place)),
        (AuthorizationResponse(state: "their-state", error: "access_denied", errorDescription: "Visit evil.example"), false,
         .stateMismatch(errorAnswer: true, at: place)),
        (AuthorizationResponse(code: "c", state: "our-state", error: "server_error", errorDescription: ""), false,
         .authorizationServer(error: "server_error", description: nil, at: place)),
        (AuthorizationResponse(state: "our-state", error: "x\u{1B}[31m", errorDescription: "line1\nline2\r\u{7F}\u{202E}"), false,
         .authorizationServer(error: "x\u{1B}[31m", description: "line1\nline2\r\u{7F}\u{202E}", at: place)),
        (AuthorizationResponse(code: "c"), false, .noState(errorAnswer: false, at: place)),
        (AuthorizationResponse(code: "c", state: "their-state"), false, .stateMismatch(errorAnswer: false, at: place)),
        (AuthorizationResponse(code: "c", state: "OUR-STATE"), false, .stateMismatch(errorAnswer: false, at: place)),
        (AuthorizationResponse(code: "c", state: "our-state", iss: "https://evil.example"), false,
         .issuerMismatch(expected: "https://idp.example", got: "https://evil.example", at: place)),
        (AuthorizationResponse(code: "c", state: "our-state", iss: "https://idp.example/"), false,
         .issuerMismatch(expected: "https://idp.example", got: "https://idp.example/", at: place)),
        (AuthorizationResponse(code: "c", state: "our-state"), true, .issuerMissing(at: place)),
        (AuthorizationResponse(state: "our-state"), false, .noCode(at: place)),
        (AuthorizationResponse(code: "", state: "our-state"), false, .noCode(at: place)),
    ]

    @Test(arguments: failures)
    func fails(response: AuthorizationResponse, issRequired: Bool, expected: OAuthError) {
        let checks = ResponseChecks(expectedState: "our-state", expectedIssuer: "https://idp.example", issRequired: issRequired)
        #expect(throws: expected) { try checks.verify(response, at: Self.place) }
    }

    /// With no issuer to expect, iss must share the authorization endpoint's origin.
    @Test(arguments: [
        ("https://idp.example/realms/a", true), ("https://IDP.example:443", true),
        ("https://evil.example", false), ("http://idp.example/realms/a", false), ("https://idp.example:8443/", false), ("not a url", false),
    ])
    func issWithoutExpectedIssuer(iss: String, accepted: Bool) throws {
        let checks = ResponseChecks(expectedState: "our-state", expectedIssuer: nil, issRequired: false,
                                    authorizationEndpoint: "https://idp.example/realms/a/protocol/openid-connect/auth")
        let response = AuthorizationResponse(code: "c", state: "our-state", iss: iss)
        if accepted {
            #expect(try checks.verify(response, at: Self.place) == "c")
        } else {
            #expect(throws: OAuthError.issuerNotOfEndpoint(iss: iss, origin: "https://idp.example", at: Self.place)) {
                try checks.verify(response, at: Self.place)
            }
        }
    }

    /// Server text in messages: bounded and escaped once finished (Core/ServerText/ServerText.swift).
    @Test(arguments: [
        ("plain", "plain"), ("a\u{0}b\nc\u{7F}d\te", "a\\x00b c\\x7fd e"), ("\u{1B}[2J", "\\x1b[2J"), ("é€😀", "é€😀"),
        (String(repeating: "x", count: 300), String(repeating: "x", count: 300)),
        (String(repeating: "y", count: 301), String(repeating: "y", count: 300) + "…"),
        (String(repeating: "é", count: 1000), String(repeating: "é", count: 300) + "…"),
        ("", ""),
    ])
    func printable(text: String, expected: String) {
        #expect(ServerText.finished(ServerText.printable(text)) == expected)
    }
}
