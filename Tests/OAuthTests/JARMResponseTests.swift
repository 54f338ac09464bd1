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
        ([("code", "c"), ("state", "s")], .jarmMissing(.jwt, at: place)),
        ([("response", "")], .jarmMissing(.jwt, at: place)),
        ([("response", "a"), ("response", "b")], .repeatedParameter("response", at: place)),
    ] as [([(String, String)], OAuthError)])
    func responseParameter(fields: [(String, String)], expected: OAuthError) {
        #expect(throws: expected) { try JARMResponse.jwt(in: fields, mode: .jwt, at: Self.place) }
    }

    static func read(_ payload: String) throws(OAuthError) -> AuthorizationResponse {
        try JARMResponse.response(payload: Array(payload.utf8), issuer: .exact("https://idp.example"), clientID: "app", now: now, skew: 60, at: place)
    }

    @Test func answerReadOnceTheClaimsPass() throws {
        let response = try Self.read(#"{"iss":"https://idp.example","aud":"app","exp":1700000600,"code":"c-1","state":"s-1","x":1}"#)
        #expect(response == AuthorizationResponse(code: "c-1", state: "s-1", iss: "https://idp.example"))
        let error = try Self.read(#"{"iss":"https://idp.example","aud":["app"],"exp":1700000600,"error":"access_denied","state":"s"}"#)
        #expect(error.error == "access_denied" && error.code == nil)
    }

    static func refused(_ problem: ClaimProblem) -> OAuthError {
        .jarmClaims(ClaimError(.jarmResponse, problem), at: place)
    }

    @Test(arguments: [
        (#"{"aud":"app","exp":1700000600,"code":"c"}"#, refused(.missing("iss"))),
        (#"{"iss":"https://evil.example","aud":"app","exp":1700000600,"code":"c"}"#, refused(.issuerNotExpected(.exact("https://idp.example")))),
        (#"{"iss":"https://idp.example","aud":"other","exp":1700000600,"code":"c"}"#, refused(.audienceLacksClient("app"))),
        (#"{"iss":"https://idp.example","aud":"app","code":"c"}"#, refused(.missing("exp"))),
        (#"{"iss":"https://idp.example","aud":"app","exp":1699999940,"code":"c"}"#, refused(.expired(skew: 60))),
        (#"[1]"#, .jarmPayloadNotObject(at: place)),
    ] as [(String, OAuthError)])
    func claimsChecked(payload: String, expected: OAuthError) {
        #expect(throws: expected) { try Self.read(payload) }
    }
}
