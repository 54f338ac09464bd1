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

    @Test(arguments: [
        (response(401, "application/json", #"{"error":"invalid_token","error_description":"expired \#(secret)"}"#), ExitCode.tokenEndpoint,
         "the userinfo endpoint refused: 401 error=invalid_token: expired \(secret)"),
        (response(401, nil, "", challenge: #"Bearer realm="x", error="invalid_token", error_description="The access token expired""#), .tokenEndpoint,
         "the userinfo endpoint refused: 401 error=invalid_token: The access token expired"),
        (response(401, nil, "", challenge: "Bearer error=insufficient_scope,scope=openid"), .tokenEndpoint,
         "the userinfo endpoint refused: 401 error=insufficient_scope"),
        (response(401, "text/html", "<p>\(secret)</p>", challenge: #"Bearer realm="x""#), .tokenEndpoint,
         "the userinfo endpoint refused: 401 (text/html, \(secret.count + 7) bytes)"),
        (response(500, "text/html", "<h1>\(secret)</h1>"), .tokenEndpoint, "the userinfo endpoint refused: 500 (text/html, \(secret.count + 9) bytes)"),
        (response(403, nil, #"{"sub":"\#(secret)"}"#), .tokenEndpoint, "the userinfo endpoint refused: 403 (no content type, \(secret.count + 10) bytes)"),
        (response(200, "application/json", "{\"sub\":\"\(secret)\""), .malformedResponse,
         "the userinfo answer is not a JSON object (application/json, \(secret.count + 9) bytes)"),
        (response(200, "application/json", #"["\#(secret)"]"#), .malformedResponse,
         "the userinfo answer is not a JSON object (application/json, \(secret.count + 4) bytes)"),
        (response(200, "text/plain", secret), .malformedResponse, "the userinfo answer is neither JSON nor a JWT (text/plain, \(secret.count) bytes)"),
    ])
    func refused(response: HTTPResponse, exit: ExitCode, message: String) {
        #expect(throws: Failure(exit, message, at: Self.place)) { try UserInfoResponse.classify(response, at: Self.place) }
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
                #expect(!error.line.contains("SECRET"), "\(error.line)")
            }
        }
    }

    @Test(arguments: [
        (#"{"sub":"alice","x":1}"#, "alice", nil),
        (#"{"sub":"bob"}"#, "alice", "the userinfo sub does not match the id_token's sub (OIDC Core §5.3.2)"),
        (#"{"sub":42}"#, "42", "the userinfo sub does not match the id_token's sub (OIDC Core §5.3.2)"),
        (#"{"name":"alice"}"#, "alice", "the userinfo answer has no sub (OIDC Core §5.3.2)"),
        (#"{"sub":"alice"}"#, nil, "the userinfo answer cannot be tied to a user: the token response has no id_token whose sub it must match"),
    ] as [(String, String?, String?)])
    func subject(payload: String, idTokenSubject: String?, message: String?) {
        let check = { () throws(Failure) in try UserInfoResponse.checkSubject(Array(payload.utf8), idTokenSubject: idTokenSubject, at: Self.place) }
        guard let message else {
            #expect(throws: Never.self) { try check() }
            return
        }
        #expect(throws: Failure(.securityCheck, message, at: Self.place, hint: idTokenSubject == nil ? "Ask for the openid scope." : nil)) { try check() }
    }

    @Test(arguments: [
        (#"{"sub":"a","iss":"https://idp.example","aud":"app"}"#, nil),
        (#"{"sub":"a"}"#, nil),
        (#"{"sub":"a","iss":"https://evil.example"}"#, "signed userinfo iss is not the expected issuer 'https://idp.example'"),
        (#"{"sub":"a","aud":["other"]}"#, "signed userinfo aud does not contain this client 'app'"),
    ] as [(String, String?)])
    func signedClaims(payload: String, message: String?) {
        let check = { () throws(Failure) in
            _ = try UserInfoResponse.signedClaims(payload: Array(payload.utf8), issuer: .exact("https://idp.example"), clientID: "app", at: Self.place)
        }
        guard let message else {
            #expect(throws: Never.self) { try check() }
            return
        }
        #expect(throws: Failure(.securityCheck, message, at: Self.place)) { try check() }
    }
}
