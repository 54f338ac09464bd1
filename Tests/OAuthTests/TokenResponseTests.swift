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

    static func withheld(_ body: String, _ type: String?) -> BodyQuote {
        .withheld(bytes: body.utf8.count, mediaType: type, .token)
    }

    /// Each failure as a value: the body is never carried, only its size
    /// and type; the words and exit codes are the CLI's
    /// (Tests/CLITests/ErrorReportTests.swift).
    static let failures: [(Int, String, String?, OAuthError)] = [
        (400, #"{"error":"invalid_grant","error_description":"Code expired"}"#, "application/json",
         .tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant", description: "Code expired"), at: place)),
        (401, #"{"error":"invalid_client"}"#, "application/json", .tokenRefused(status: 401, OAuthErrorObject(error: "invalid_client"), at: place)),
        (400, #"{"error":"invalid_grant","error_description":""}"#, "application/json",
         .tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant"), at: place)),
        (400, "{\"error\":\"bad\\nthing\",\"error_description\":\"x\\u0007y\"}", "application/json",
         .tokenRefused(status: 400, OAuthErrorObject(error: "bad\nthing", description: "x\u{7}y"), at: place)),
        (500, html500, "text/html; charset=utf-8", .tokenStatus(500, withheld(html500, "text/html"), at: place)),
        (503, "", nil, .tokenStatus(503, .nothing, at: place)),
        (401, "Unauthorized", "text/plain", .tokenStatus(401, withheld("Unauthorized", "text/plain"), at: place)),
        (401, "Unauthorized\r\n\r\nTry\tagain\n", "text/plain", .tokenStatus(401, withheld("Unauthorized\r\n\r\nTry\tagain\n", "text/plain"), at: place)),
        (302, "", nil, .tokenStatus(302, .nothing, at: place)),
        (200, #"{"error":"invalid_grant","access_token":"x"}"#, "application/json",
         .tokenRefused(status: nil, OAuthErrorObject(error: "invalid_grant"), at: place)),
        (200, "not json", "text/plain", .tokenNotJSON(status: 200, withheld("not json", "text/plain"), at: place)),
        (200, "[1,2]", "application/json", .tokenNotJSON(status: 200, withheld("[1,2]", "application/json"), at: place)),
        (200, #"{"access_token":"at""#, "application/json", .tokenNotJSON(status: 200, withheld(#"{"access_token":"at""#, "application/json"), at: place)),
        (200, "", "application/json", .tokenNotJSON(status: 200, .nothing, at: place)),
        (200, #"{"token_type":"Bearer"}"#, "application/json", .noAccessToken(at: place)),
        (200, #"{"access_token":""}"#, "application/json", .noAccessToken(at: place)),
        (200, #"{"access_token":42}"#, "application/json", .noAccessToken(at: place)),
        (200, #"{"access_token":null}"#, "application/json", .noAccessToken(at: place)),
        (200, String(repeating: "[", count: 10_000), "application/json",
         .tokenNotJSON(status: 200, withheld(String(repeating: "[", count: 10_000), "application/json"), at: place)),
    ]

    @Test(arguments: failures)
    func failure(status: Int, body: String, type: String?, expected: OAuthError) {
        #expect(throws: expected) { try TokenResponse(Self.response(status, body, type: type), at: Self.place) }
    }

    /// Deep nesting must be refused as malformed, never overflow the stack.
    @Test(arguments: [10_000, 100_000])
    func deepNestingIsMalformed(depth: Int) {
        let arrays = "{\"access_token\":\"at\",\"x\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        for body in [arrays, objects] {
            #expect(throws: OAuthError.tokenNotJSON(status: 200, Self.withheld(body, "application/json"), at: Self.place)) {
                try TokenResponse(Self.response(200, body), at: Self.place)
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
            guard case .page(let raw, html: true) = BodyQuote.of(Self.response(500, page, type: "text/html"), from: .page) else {
                Issue.record("no page text")
                return
            }
            #expect(ServerText.finished(ServerText.printable(raw, limit: 120, html: true)) == "Broken gateway")
            #expect(throws: OAuthError.tokenStatus(500, Self.withheld(page, "text/html"), at: Self.place)) {
                try TokenResponse(Self.response(500, page, type: "text/html"), at: Self.place)
            }
        }
        #expect(ratio < Growth.linearLimit, "4× the script took \(ratio)× the CPU time")
    }

    static let token = "at-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    static let tokenJSON = #"{"access_token":"\#(token)","token_type":"Bearer","expires_in":3600}"#

    /// Bodies that hold a token but do not parse, or are not the answer
    /// (HTTP/Quoting/EndpointKind.swift): never quoted; status, size and type only.
    @Test(arguments: [
        (200, ")]}',\n" + tokenJSON, "application/json", false),
        (200, tokenJSON + "\n<!-- 0.2 ms -->", "application/json", false),
        (200, tokenJSON + tokenJSON, "application/json", false),
        (200, String(tokenJSON.dropLast(12)), "application/json", false),
        (200, "access_token=\(token)&token_type=bearer", "text/plain", false),
        (200, "<pre>" + tokenJSON + "</pre>", "text/html", false),
        (500, "<html><body><h1>Error</h1><pre>while sending " + tokenJSON + "</pre></body></html>", "text/html", true),
        (502, tokenJSON, "application/json", true),
        (400, #"{"error":"invalid_grant"} "# + tokenJSON, "application/json", true),
        (400, "[" + tokenJSON + "]", "application/json", true),
        (400, tokenJSON, "text/plain; charset=\u{1B}[31m" + token, true),
    ] as [(Int, String, String, Bool)])
    func tokenInABodyIsNeverQuoted(status: Int, body: String, type: String, refused: Bool) {
        do throws(OAuthError) {
            _ = try TokenResponse(Self.response(status, body, type: type), at: Self.place)
            Issue.record("accepted")
        } catch {
            let quote = BodyQuote.withheld(bytes: body.utf8.count, mediaType: Self.response(status, body, type: type).mediaType, .token)
            #expect(error == (refused ? .tokenStatus(status, quote, at: Self.place) : .tokenNotJSON(status: status, quote, at: Self.place)))
            #expect(!"\(error)".contains(Self.token) && !"\(error)".contains("9f8e7d6c"), "\(error)")
        }
    }

    /// Invalid UTF-8 inside a string is no JSON (RFC 8259 §8.1): malformed, unquoted.
    @Test func brokenUTF8IsMalformedAndUnquoted() {
        let body = Array(#"{"access_token":"\#(Self.token)","scope":"caf"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: OAuthError.tokenNotJSON(status: 200, .withheld(bytes: body.count, mediaType: "application/json", .token), at: Self.place)) {
            try TokenResponse(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body), at: Self.place)
        }
    }

    /// A description quoting the answer the server failed to send is left out.
    @Test func descriptionQuotingATokenIsWithheld() {
        let body = #"{"error":"server_error","error_description":"cannot encode {\"access_token\":\"\#(Self.token)\"}"}"#
        #expect(throws: OAuthError.tokenRefused(status: 500, OAuthErrorObject(error: "server_error", descriptionWithheld: true), at: Self.place)) {
            try TokenResponse(Self.response(500, body), at: Self.place)
        }
    }

    /// A well-formed error object is quoted, but a token beside the error
    /// is masked where the server repeats it in the text.
    @Test func tokenRepeatedInAnErrorIsMasked() {
        let body = #"{"error":"server_error","error_description":"could not store \#(Self.token)","access_token":"\#(Self.token)"}"#
        #expect(throws: OAuthError.tokenRefused(status: 500, OAuthErrorObject(error: "server_error", description: "could not store [redacted]"),
                                                at: Self.place)) {
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
