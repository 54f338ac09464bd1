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

    static let failures: [(AuthorizationResponse, Bool, Failure)] = [
        (AuthorizationResponse(state: "our-state", error: "access_denied", errorDescription: "User said no"), false,
         Failure(.authorizationError, "the authorization server answered error=access_denied: User said no", at: place)),
        (AuthorizationResponse(error: "invalid_scope"), false,
         Failure(.authorizationError, "the authorization server answered error=invalid_scope", at: place)),
        (AuthorizationResponse(error: "server_error", errorDescription: ""), false,
         Failure(.authorizationError, "the authorization server answered error=server_error", at: place)),
        (AuthorizationResponse(error: "x\u{1B}[31m", errorDescription: "line1\nline2\r\u{7F}"), false,
         Failure(.authorizationError, "the authorization server answered error=x [31m: line1 line2  ", at: place)),
        (AuthorizationResponse(code: "c"), false,
         Failure(.securityCheck, "the authorization response has no state; the code is not redeemed", at: place)),
        (AuthorizationResponse(code: "c", state: "their-state"), false,
         Failure(.securityCheck, "state mismatch: the authorization response is not for this request; the code is not redeemed", at: place)),
        (AuthorizationResponse(code: "c", state: "OUR-STATE"), false,
         Failure(.securityCheck, "state mismatch: the authorization response is not for this request; the code is not redeemed", at: place)),
        (AuthorizationResponse(code: "c", state: "our-state", iss: "https://evil.example"), false,
         Failure(.securityCheck, "iss mismatch: expected 'https://idp.example', got 'https://evil.example' (RFC 9207); the code is not redeemed", at: place)),
        (AuthorizationResponse(code: "c", state: "our-state", iss: "https://idp.example/"), false,
         Failure(.securityCheck, "iss mismatch: expected 'https://idp.example', got 'https://idp.example/' (RFC 9207); the code is not redeemed", at: place)),
        (AuthorizationResponse(code: "c", state: "our-state"), true,
         Failure(.securityCheck, "the authorization response has no iss although the server's metadata promises it (RFC 9207); the code is not redeemed", at: place)),
        (AuthorizationResponse(state: "our-state"), false,
         Failure(.malformedResponse, "the authorization response has neither code nor error", at: place)),
        (AuthorizationResponse(code: "", state: "our-state"), false,
         Failure(.malformedResponse, "the authorization response has neither code nor error", at: place)),
    ]

    @Test(arguments: failures)
    func fails(response: AuthorizationResponse, issRequired: Bool, expected: Failure) {
        let checks = ResponseChecks(expectedState: "our-state", expectedIssuer: "https://idp.example", issRequired: issRequired)
        #expect(throws: expected) { try checks.verify(response, at: Self.place) }
    }

    @Test(arguments: [
        ("plain", "plain"), ("a\u{0}b\nc\u{7F}d\te", "a b c d e"), ("\u{1B}[2J", " [2J"), ("é€😀", "é€😀"),
        (String(repeating: "x", count: 300), String(repeating: "x", count: 300)),
        (String(repeating: "y", count: 301), String(repeating: "y", count: 300) + "…"),
        (String(repeating: "é", count: 1000), String(repeating: "é", count: 300) + "…"),
        ("", ""),
    ])
    func printable(text: String, expected: String) {
        #expect(ServerText.printable(text) == expected)
    }
}
