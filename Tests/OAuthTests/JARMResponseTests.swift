import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

/// JARM (OpenID JARM §2.3-2.4): where the `response` parameter is read, and
/// the claims checked before the answer's fields are.
struct JARMResponseTests {
    static let place = "http://127.0.0.1:8765/cb"
    static let now = 1_700_000_000.0

    @Test(arguments: [
        ("http://127.0.0.1:8765/cb?response=Q&code=c", ResponseMode.jwt, ["response": "Q", "code": "c"]),
        ("http://127.0.0.1:8765/cb?response=Q#response=F", .queryJWT, ["response": "Q"]),
        ("http://127.0.0.1:8765/cb?response=Q#response=F", .fragmentJWT, ["response": "F"]),
        ("http://127.0.0.1:8765/cb#response=F", .jwt, [:]),
    ])
    func fieldsPerMode(url: String, mode: ResponseMode, fields: [String: String]) throws {
        let read = JARMResponse.fields(of: try #require(URIReference(url)), mode: mode)
        #expect(Dictionary(read, uniquingKeysWith: { a, _ in a }) == fields)
    }

    @Test(arguments: [
        ([("code", "c"), ("state", "s")], "the authorization response has no JARM 'response' parameter (--response-mode jwt); the code is not redeemed"),
        ([("response", "")], "the authorization response has no JARM 'response' parameter (--response-mode jwt); the code is not redeemed"),
        ([("response", "a"), ("response", "b")], "the authorization response has 'response' more than once; refusing to guess which is real"),
    ] as [([(String, String)], String)])
    func responseParameter(fields: [(String, String)], message: String) {
        #expect(throws: Failure(.securityCheck, message, at: Self.place)) { try JARMResponse.jwt(in: fields, mode: .jwt, at: Self.place) }
    }

    static func read(_ payload: String) throws(Failure) -> AuthorizationResponse {
        try JARMResponse.response(payload: Array(payload.utf8), issuer: .exact("https://idp.example"), clientID: "app", now: now, skew: 60, at: place)
    }

    @Test func answerReadOnceTheClaimsPass() throws {
        let response = try Self.read(#"{"iss":"https://idp.example","aud":"app","exp":1700000600,"code":"c-1","state":"s-1","x":1}"#)
        #expect(response == AuthorizationResponse(code: "c-1", state: "s-1", iss: "https://idp.example"))
        let error = try Self.read(#"{"iss":"https://idp.example","aud":["app"],"exp":1700000600,"error":"access_denied","state":"s"}"#)
        #expect(error.error == "access_denied" && error.code == nil)
    }

    @Test(arguments: [
        (#"{"aud":"app","exp":1700000600,"code":"c"}"#, "JARM response has no iss; the code is not redeemed"),
        (#"{"iss":"https://evil.example","aud":"app","exp":1700000600,"code":"c"}"#,
         "JARM response iss is not the expected issuer 'https://idp.example'; the code is not redeemed"),
        (#"{"iss":"https://idp.example","aud":"other","exp":1700000600,"code":"c"}"#, "JARM response aud does not contain this client 'app'; the code is not redeemed"),
        (#"{"iss":"https://idp.example","aud":"app","code":"c"}"#, "JARM response has no exp; the code is not redeemed"),
        (#"{"iss":"https://idp.example","aud":"app","exp":1699999940,"code":"c"}"#,
         "JARM response has expired (exp is past, beyond 60 s of clock skew); the code is not redeemed"),
        (#"[1]"#, "the JARM response's payload is not a JSON object; the code is not redeemed"),
    ])
    func claimsChecked(payload: String, message: String) {
        #expect(throws: Failure(.securityCheck, message, at: Self.place)) { try Self.read(payload) }
    }
}
