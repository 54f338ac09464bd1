import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth

struct TokenResponseTests {
    static let place = "https://as.example/token"

    static func response(_ status: Int, _ body: String, type: String? = "application/json") -> HTTPResponse {
        HTTPResponse(status: status, headers: type.map { [HTTPHeader("Content-Type", $0)] } ?? [], body: Array(body.utf8))
    }

    @Test(arguments: [200, 201, 299])
    func success(status: Int) throws {
        let body = #"{"access_token":"at-123","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","id_token":"a.b.c"}"#
        let token = try TokenResponse(Self.response(status, body), at: Self.place)
        #expect(token.body == Array(body.utf8))
        #expect(token.accessToken == "at-123")
        #expect(token.refreshToken == "rt")
        #expect(token.idToken == "a.b.c")
        #expect(token.json["expires_in"]?.numberValue == 3600)
        #expect(token.oneLine == body)
    }

    @Test func expiresInAsAString() throws {
        let token = try TokenResponse(Self.response(200, #"{"access_token":"at","expires_in":"3600"}"#), at: Self.place)
        #expect(token.json["expires_in"]?.numberValue == 3600)
        #expect(token.refreshToken == nil && token.idToken == nil)
    }

    /// `--print json` puts the body on one line: CR, LF and the indentation
    /// after them go (white space between JSON tokens); nothing else changes.
    @Test(arguments: [
        ("{\n  \"access_token\": \"at\",\r\n  \"x\": [1,\n 2]\n}\n", "{\"access_token\": \"at\",\"x\": [1,2]}"),
        ("{\"access_token\": \"a  b\",\n\t\"y\" : 1}", "{\"access_token\": \"a  b\",\"y\" : 1}"),
        ("  {\"access_token\":\"a\\nb\"}  \n", "{\"access_token\":\"a\\nb\"}"),
        ("{\"access_token\":\"é€\"}", "{\"access_token\":\"é€\"}"),
    ])
    func oneLine(body: String, expected: String) throws {
        let token = try TokenResponse(Self.response(200, body), at: Self.place)
        #expect(token.oneLine == expected)
        #expect(!token.oneLine.contains("\n") && !token.oneLine.contains("\r"))
    }

    static let html500 = "<html><head><title>Oops</title><style>body{color:red}</style></head>" +
        "<body><h1>Internal   Server\nError</h1><script>var secret = 1;</script></body></html>"

    static let failures: [(Int, String, String?, Failure)] = [
        (400, #"{"error":"invalid_grant","error_description":"Code expired"}"#, "application/json",
         Failure(.tokenEndpoint, "the token endpoint refused: 400 error=invalid_grant: Code expired", at: place, reason: .tokenEndpoint(.invalidGrant))),
        (401, #"{"error":"invalid_client"}"#, "application/json",
         Failure(.tokenEndpoint, "the token endpoint refused: 401 error=invalid_client", at: place,
                 reason: .tokenEndpoint(OAuthErrorCode(rawValue: "invalid_client")))),
        (400, #"{"error":"invalid_grant","error_description":""}"#, "application/json",
         Failure(.tokenEndpoint, "the token endpoint refused: 400 error=invalid_grant", at: place, reason: .tokenEndpoint(.invalidGrant))),
        (400, "{\"error\":\"bad\\nthing\",\"error_description\":\"x\\u0007y\"}", "application/json",
         Failure(.tokenEndpoint, "the token endpoint refused: 400 error=bad thing: x\\x07y", at: place,
                 reason: .tokenEndpoint(OAuthErrorCode(rawValue: "bad\nthing")))),
        (500, html500, "text/html; charset=utf-8",
         Failure(.tokenEndpoint, "the token endpoint answered 500 with \(html500.utf8.count) bytes of text/html (not shown: it may hold tokens)", at: place)),
        (503, "", nil, Failure(.tokenEndpoint, "the token endpoint answered 503", at: place)),
        (401, "Unauthorized", "text/plain", Failure(.tokenEndpoint, "the token endpoint answered 401 with 12 bytes of text/plain (not shown: it may hold tokens)", at: place)),
        (401, "Unauthorized\r\n\r\nTry\tagain\n", "text/plain", Failure(.tokenEndpoint, "the token endpoint answered 401 with 26 bytes of text/plain (not shown: it may hold tokens)", at: place)),
        (302, "", nil, Failure(.tokenEndpoint, "the token endpoint answered 302", at: place)),
        (200, #"{"error":"invalid_grant","access_token":"x"}"#, "application/json",
         Failure(.tokenEndpoint, "the token endpoint refused: error=invalid_grant", at: place, reason: .tokenEndpoint(.invalidGrant))),
        (200, "not json", "text/plain", Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200 with 8 bytes of text/plain (not shown: it may hold tokens)", at: place)),
        (200, "[1,2]", "application/json", Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200 with 5 bytes of application/json (not shown: it may hold tokens)", at: place)),
        (200, #"{"access_token":"at""#, "application/json",
         Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200 with 20 bytes of application/json (not shown: it may hold tokens)", at: place)),
        (200, "", "application/json", Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200", at: place)),
        (200, #"{"token_type":"Bearer"}"#, "application/json", Failure(.malformedResponse, "the token endpoint's answer has no access_token", at: place)),
        (200, #"{"access_token":""}"#, "application/json", Failure(.malformedResponse, "the token endpoint's answer has no access_token", at: place)),
        (200, #"{"access_token":42}"#, "application/json", Failure(.malformedResponse, "the token endpoint's answer has no access_token", at: place)),
        (200, #"{"access_token":null}"#, "application/json", Failure(.malformedResponse, "the token endpoint's answer has no access_token", at: place)),
        (200, String(repeating: "[", count: 10_000), "application/json",
         Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200 with 10000 bytes of application/json (not shown: it may hold tokens)", at: place)),
    ]

    @Test(arguments: failures)
    func failure(status: Int, body: String, type: String?, expected: Failure) {
        #expect(throws: expected) { try TokenResponse(Self.response(status, body, type: type), at: Self.place) }
    }

    /// Deep nesting must be refused (exit 8), never overflow the stack.
    @Test(arguments: [10_000, 100_000])
    func deepNestingIsMalformed(depth: Int) {
        let arrays = "{\"access_token\":\"at\",\"x\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        for body in [arrays, objects] {
            do throws(Failure) {
                _ = try TokenResponse(Self.response(200, body), at: Self.place)
                Issue.record("a \(depth)-deep document was accepted")
            } catch {
                #expect(error.exitCode == .malformedResponse)
            }
        }
    }

    /// A 500 page with a large inline script (common for SPA error pages)
    /// must not make a page's error excerpt take quadratic time: four times
    /// the script, about four times the CPU time (TestSupport/Growth.swift).
    /// Token endpoint bodies are never excerpted at all.
    @Test func largeScriptExcerptStaysLinear() {
        let ratio = Growth.ratio(size: 40_000) { size in
            let page = "<html><body><p>Broken</p><script>" + String(repeating: "x", count: size) + "</script><p>gateway</p></body></html>"
            #expect(ServerText.finished(BodyInMessage.of(Self.response(500, page, type: "text/html"), from: .page)) == ": Broken gateway")
            #expect(throws: Failure(.tokenEndpoint, "the token endpoint answered 500 with \(page.utf8.count) bytes of text/html (not shown: it may hold tokens)",
                                    at: Self.place)) {
                try TokenResponse(Self.response(500, page, type: "text/html"), at: Self.place)
            }
        }
        #expect(ratio < Growth.linearLimit, "4× the script took \(ratio)× the CPU time")
    }

    static let token = "at-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    static let tokenJSON = #"{"access_token":"\#(token)","token_type":"Bearer","expires_in":3600}"#

    /// Bodies that hold a token but do not parse, or are not the answer
    /// (HTTP/EndpointKind.swift): never quoted; status, size and type only.
    @Test(arguments: [
        (200, ")]}',\n" + tokenJSON, "application/json", ExitCode.malformedResponse),
        (200, tokenJSON + "\n<!-- 0.2 ms -->", "application/json", .malformedResponse),
        (200, tokenJSON + tokenJSON, "application/json", .malformedResponse),
        (200, String(tokenJSON.dropLast(12)), "application/json", .malformedResponse),
        (200, "access_token=\(token)&token_type=bearer", "text/plain", .malformedResponse),
        (200, "<pre>" + tokenJSON + "</pre>", "text/html", .malformedResponse),
        (500, "<html><body><h1>Error</h1><pre>while sending " + tokenJSON + "</pre></body></html>", "text/html", .tokenEndpoint),
        (502, tokenJSON, "application/json", .tokenEndpoint),
        (400, #"{"error":"invalid_grant"} "# + tokenJSON, "application/json", .tokenEndpoint),
        (400, "[" + tokenJSON + "]", "application/json", .tokenEndpoint),
        (400, tokenJSON, "text/plain; charset=\u{1B}[31m" + token, .tokenEndpoint),
    ] as [(Int, String, String, ExitCode)])
    func tokenInABodyIsNeverQuoted(status: Int, body: String, type: String, exit: ExitCode) {
        do throws(Failure) {
            _ = try TokenResponse(Self.response(status, body, type: type), at: Self.place)
            Issue.record("accepted")
        } catch {
            #expect(error.exitCode == exit)
            #expect(!error.line.contains(Self.token) && !error.line.contains("9f8e7d6c"), "\(error.line)")
            #expect(error.line.contains("\(status) with \(body.utf8.count) bytes of "), "\(error.line)")
        }
    }

    /// Invalid UTF-8 inside a string is no JSON (RFC 8259 §8.1): exit 8, unquoted.
    @Test func brokenUTF8IsMalformedAndUnquoted() {
        let body = Array(#"{"access_token":"\#(Self.token)","scope":"caf"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: Failure(.malformedResponse, "the token endpoint's answer is not a JSON object: 200 with \(body.count) bytes of application/json (not shown: it may hold tokens)",
                                at: Self.place)) {
            try TokenResponse(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body), at: Self.place)
        }
    }

    /// A description quoting the answer the server failed to send is left out.
    @Test func descriptionQuotingATokenIsWithheld() {
        let body = #"{"error":"server_error","error_description":"cannot encode {\"access_token\":\"\#(Self.token)\"}"}"#
        #expect(throws: Failure(.tokenEndpoint, "the token endpoint refused: 500 error=server_error (error_description not shown: it quotes a token)",
                                at: Self.place, reason: .tokenEndpoint(OAuthErrorCode(rawValue: "server_error")))) {
            try TokenResponse(Self.response(500, body), at: Self.place)
        }
    }

    /// A well-formed error object is quoted, but a token beside the error
    /// is masked where the server repeats it in the text.
    @Test func tokenRepeatedInAnErrorIsMasked() {
        let body = #"{"error":"server_error","error_description":"could not store \#(Self.token)","access_token":"\#(Self.token)"}"#
        #expect(throws: Failure(.tokenEndpoint, "the token endpoint refused: 500 error=server_error: could not store [redacted]", at: Self.place,
                                reason: .tokenEndpoint(OAuthErrorCode(rawValue: "server_error")))) {
            try TokenResponse(Self.response(500, body), at: Self.place)
        }
    }

    @Test(arguments: [
        ("\"x\"", JSONValue.string("x")), ("1.5", .number(1.5)), ("true", .bool(true)), ("null", .null),
        ("[1,\"a\"]", .array([.number(1), .string("a")])), ("{\"k\":{\"n\":false}}", .object(["k": .object(["n": .bool(false)])])),
    ])
    func jsonValues(text: String, expected: JSONValue) {
        #expect(JSONValue.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [("\"3600\"", 3600.0), ("3600", 3600), ("\"abc\"", nil), ("true", nil), ("\"1e3\"", 1000)] as [(String, Double?)])
    func numberValue(text: String, expected: Double?) throws {
        #expect(try #require(JSONValue.parse(Array(text.utf8))).numberValue == expected)
    }
}
