import Testing
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth

/// What the modern client profile reads from answers: PAR's request_uri
/// and errors (never quoting the body), DPoP nonce challenges, token types.
struct ProfileResponseTests {
    static let json = [HTTPHeader("Content-Type", "application/json")]
    static let place = "https://as.example/par"

    @Test func pushedRequestURI() throws {
        let response = HTTPResponse(status: 201, headers: Self.json, body: Array(#"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":60}"#.utf8))
        let pushed = try PushedAuthorizationResponse(response, at: Self.place)
        #expect(pushed.requestURI == "urn:ietf:params:oauth:request_uri:abc" && pushed.expiresIn == 60)
    }

    /// An OAuth error is the server refusing the request (exit 4); anything
    /// else that is not a 2xx is exit 7; a 2xx without request_uri exit 8.
    /// The body's other text never reaches the message.
    @Test(arguments: [
        (400, #"{"error":"invalid_request","error_description":"bad scope","secret_echo":"s3cr3t-body"}"#, ExitCode.authorizationError,
         "the pushed authorization request endpoint refused: 400 error=invalid_request: bad scope"),
        (401, #"{"error":"invalid_client"}"#, .authorizationError, "the pushed authorization request endpoint refused: 401 error=invalid_client"),
        (401, "", .tokenEndpoint, "the pushed authorization request endpoint answered 401"),
        (403, "<html><h1>Invalid request s3cr3t-body</h1></html>", .tokenEndpoint,
         "the pushed authorization request endpoint answered 403 with 49 bytes of application/json (not shown: it may hold secrets)"),
        (201, #"{"expires_in":60,"note":"s3cr3t-body"}"#, .malformedResponse,
         "the pushed authorization request endpoint's answer has no request_uri: 201 with 38 bytes of application/json (not shown: it may hold secrets)"),
        (201, "s3cr3t-body", .malformedResponse,
         "the pushed authorization request endpoint's answer has no request_uri: 201 with 11 bytes of application/json (not shown: it may hold secrets)"),
    ] as [(Int, String, ExitCode, String)])
    func pushedErrors(status: Int, body: String, exit: ExitCode, message: String) {
        let response = HTTPResponse(status: status, headers: Self.json, body: Array(body.utf8))
        do {
            _ = try PushedAuthorizationResponse(response, at: Self.place)
            Issue.record("accepted")
        } catch {
            #expect(error.exitCode == exit)
            #expect(ServerText.finished(error.message) == message)
            #expect(!error.line.contains("s3cr3t-body"))
            #expect(error.location == Self.place)
        }
    }

    @Test(arguments: [
        (400, [HTTPHeader("DPoP-Nonce", "n-1")], #"{"error":"use_dpop_nonce"}"#, "n-1"),
        (401, [HTTPHeader("DPoP-Nonce", "n-2"), HTTPHeader("WWW-Authenticate", #"DPoP error="use_dpop_nonce", algs="ES256""#)], "", "n-2"),
        (400, [], #"{"error":"use_dpop_nonce"}"#, nil),
        (400, [HTTPHeader("DPoP-Nonce", "n-3")], #"{"error":"invalid_dpop_proof"}"#, nil),
        (200, [HTTPHeader("DPoP-Nonce", "n-4")], #"{"error":"use_dpop_nonce"}"#, nil),
        (400, [HTTPHeader("DPoP-Nonce", "bad nonce")], #"{"error":"use_dpop_nonce"}"#, nil),
        (400, [HTTPHeader("DPoP-Nonce", "")], #"{"error":"use_dpop_nonce"}"#, nil),
    ] as [(Int, [HTTPHeader], String, String?)])
    func nonceChallenge(status: Int, headers: [HTTPHeader], body: String, nonce: String?) {
        #expect(DPoPNonceChallenge.demanded(by: HTTPResponse(status: status, headers: headers, body: Array(body.utf8))) == nonce)
    }

    @Test func nonceOfferedOnSuccess() {
        #expect(DPoPNonceChallenge.offered(by: HTTPResponse(status: 200, headers: [HTTPHeader("dpop-nonce", "abc~1")])) == "abc~1")
        #expect(DPoPNonceChallenge.offered(by: HTTPResponse(status: 200, headers: [HTTPHeader("DPoP-Nonce", "a\"b")])) == nil)
    }

    @Test(arguments: [
        (nil, "Bearer"), ("", "Bearer"), ("bearer", "Bearer"), ("BEARER", "Bearer"), ("Bearer", "Bearer"),
        ("dpop", "DPoP"), ("DPOP", "DPoP"), ("DPoP", "DPoP"), ("MAC", "MAC"), ("N_A", "N_A"),
    ] as [(String?, String)])
    func tokenScheme(type: String?, header: String) {
        #expect(TokenScheme(tokenType: type).headerName == header)
    }
}
