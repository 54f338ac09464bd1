import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

/// The userinfo answer (OIDC Core §5.3): classified without ever quoting
/// its body — it holds personal data and may echo the access token.
struct UserInfoResponseTests {
    static let place = "https://idp.example/userinfo"
    static let secret = "SECRET-at-42-personal@example.com"

    static func response(_ status: Int, _ type: String?, _ body: String, challenge: String? = nil) -> HTTPResponse {
        var headers: [HTTPHeader] = type.map { [HTTPHeader("Content-Type", $0)] } ?? []
        if let challenge { headers.append(HTTPHeader("WWW-Authenticate", challenge)) }
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: [
        (response(200, "application/json", #"{"sub":"a"}"#), UserInfoResponse.Body.json(Array(#"{"sub":"a"}"#.utf8))),
        (response(200, "application/json; charset=utf-8", #"{"sub":"a"}"#), .json(Array(#"{"sub":"a"}"#.utf8))),
        (response(200, nil, #"{"sub":"a"}"#), .json(Array(#"{"sub":"a"}"#.utf8))),
        (response(200, "Application/JWT", "a.b.c\n"), .jwt("a.b.c")),
    ])
    func accepted(response: HTTPResponse, body: UserInfoResponse.Body) throws {
        #expect(try UserInfoResponse.classify(response, at: Self.place) == body)
    }

    static func shape(_ bytes: Int, _ type: String?) -> BodyQuote {
        .withheld(bytes: bytes, mediaType: type, .userinfo)
    }

    /// Each refusal as a value (the words are the CLI's: Tests/CLITests/ErrorReportTests.swift).
    @Test(arguments: [
        (response(401, "application/json", #"{"error":"invalid_token","error_description":"expired \#(secret)"}"#),
         .userinfoRefused(status: 401, BearerError(error: "invalid_token", description: "expired \(secret)"), shape(secret.count + 56, "application/json"),
                          at: place)),
        (response(401, nil, "", challenge: #"Bearer realm="x", error="invalid_token", error_description="The access token expired""#),
         .userinfoRefused(status: 401, BearerError(error: "invalid_token", description: "The access token expired"), shape(0, nil), at: place)),
        (response(401, nil, "", challenge: "Bearer error=insufficient_scope,scope=openid"),
         .userinfoRefused(status: 401, BearerError(error: "insufficient_scope", description: nil), shape(0, nil), at: place)),
        (response(401, "text/html", "<p>\(secret)</p>", challenge: #"Bearer realm="x""#),
         .userinfoRefused(status: 401, nil, shape(secret.count + 7, "text/html"), at: place)),
        (response(500, "text/html", "<h1>\(secret)</h1>"), .userinfoRefused(status: 500, nil, shape(secret.count + 9, "text/html"), at: place)),
        (response(403, nil, #"{"sub":"\#(secret)"}"#), .userinfoRefused(status: 403, nil, shape(secret.count + 10, nil), at: place)),
        (response(200, "application/json", "{\"sub\":\"\(secret)\""), .userinfoNotObject(shape(secret.count + 9, "application/json"), at: place)),
        (response(200, "application/json", #"["\#(secret)"]"#), .userinfoNotObject(shape(secret.count + 4, "application/json"), at: place)),
        (response(200, "text/plain", secret), .userinfoNotJSONOrJWT(shape(secret.count, "text/plain"), at: place)),
    ] as [(HTTPResponse, OAuthError)])
    func refused(response: HTTPResponse, expected: OAuthError) {
        #expect(throws: expected) { try UserInfoResponse.classify(response, at: Self.place) }
    }

    /// Only a well-formed OAuth error's own text may show (scrubbed later
    /// by the run's redactor); a body that is no error object never does.
    @Test func bodiesAreNeverQuoted() {
        for response in [Self.response(500, "text/html", Self.secret), Self.response(200, "application/json", Self.secret),
                         Self.response(404, "application/json", #"{"message":"\#(Self.secret)"}"#), Self.response(200, "image/png", Self.secret)] {
            do {
                _ = try UserInfoResponse.classify(response, at: Self.place)
                Issue.record("accepted \(response)")
            } catch {
                #expect(!"\(error)".contains("SECRET"), "\(error)")
            }
        }
    }

    @Test(arguments: [
        (#"{"sub":"alice","x":1}"#, "alice", nil),
        (#"{"sub":"bob"}"#, "alice", .userinfoSubjectMismatch(at: place)),
        (#"{"sub":42}"#, "42", .userinfoSubjectMismatch(at: place)),
        (#"{"name":"alice"}"#, "alice", .userinfoNoSubject(at: place)),
        (#"{"sub":"alice"}"#, nil, .userinfoUnbound(at: place)),
    ] as [(String, String?, OAuthError?)])
    func subject(payload: String, idTokenSubject: String?, expected: OAuthError?) {
        let check = { () throws(OAuthError) in try UserInfoResponse.checkSubject(Array(payload.utf8), idTokenSubject: idTokenSubject, at: Self.place) }
        guard let expected else {
            #expect(throws: Never.self) { try check() }
            return
        }
        #expect(throws: expected) { try check() }
    }

    @Test(arguments: [
        (#"{"sub":"a","iss":"https://idp.example","aud":"app"}"#, nil),
        (#"{"sub":"a"}"#, nil),
        (#"{"sub":"a","iss":"https://evil.example"}"#, ClaimProblem.issuerNotExpected(.exact("https://idp.example"))),
        (#"{"sub":"a","aud":["other"]}"#, .audienceLacksClient("app")),
    ] as [(String, ClaimProblem?)])
    func signedClaims(payload: String, problem: ClaimProblem?) {
        let check = { () throws(OAuthError) in
            _ = try UserInfoResponse.signedClaims(payload: Array(payload.utf8), issuer: .exact("https://idp.example"), clientID: "app", at: Self.place)
        }
        guard let problem else {
            #expect(throws: Never.self) { try check() }
            return
        }
        #expect(throws: OAuthError.userinfoClaims(ClaimError(.signedUserinfo, problem), at: Self.place)) { try check() }
    }
}
