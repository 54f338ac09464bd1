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

    static func withheld(_ bytes: Int) -> BodyQuote {
        .withheld(bytes: bytes, mediaType: "application/json", .pushedAuthorization)
    }

    /// An OAuth error is the server refusing the request; anything else
    /// that is not a 2xx is a failed push; a 2xx without request_uri is
    /// malformed. The body's other text is never carried (the CLI's words:
    /// Tests/CLITests/ErrorReportTests.swift).
    @Test(arguments: [
        (400, #"{"error":"invalid_request","error_description":"bad scope","secret_echo":"s3cr3t-body"}"#,
         .pushRefused(status: 400, OAuthErrorObject(error: "invalid_request", description: "bad scope"), at: place)),
        (401, #"{"error":"invalid_client"}"#, .pushRefused(status: 401, OAuthErrorObject(error: "invalid_client"), at: place)),
        (401, "", .pushStatus(401, .nothing, at: place)),
        (403, "<html><h1>Invalid request s3cr3t-body</h1></html>", .pushStatus(403, withheld(49), at: place)),
        (201, #"{"expires_in":60,"note":"s3cr3t-body"}"#, .pushNoRequestURI(status: 201, withheld(38), at: place)),
        (201, "s3cr3t-body", .pushNoRequestURI(status: 201, withheld(11), at: place)),
    ] as [(Int, String, OAuthError)])
    func pushedErrors(status: Int, body: String, expected: OAuthError) {
        let response = HTTPResponse(status: status, headers: Self.json, body: Array(body.utf8))
        do throws(OAuthError) {
            _ = try PushedAuthorizationResponse(response, at: Self.place)
            Issue.record("accepted")
        } catch {
            #expect(error == expected)
            #expect(!"\(error)".contains("s3cr3t-body"))
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
