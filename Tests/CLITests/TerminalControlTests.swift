import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

/// Server text reaches the terminal with its control characters escaped
/// visibly (C0 but newline, DEL, C1, bidi overrides), and a printed field
/// holding one is refused (exit 8) rather than written raw.
struct TerminalControlTests {
    static let hostile = "x\u{1B}]0;pwned\u{7}\u{9B}2J\u{202E}evil\u{7F}"
    static let escaped = "x\\x1b]0;pwned\\x07\\u009b2J\\u202eevil\\x7f"

    static func tokenAnswer(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(json.utf8))
    }

    @Test func errorLineEscapesServerText() {
        let transport = AuthCodeRunTests.server(token: Self.tokenAnswer(#"{"error":"invalid_grant","error_description":"\#(Self.hostileJSON)"}"#, status: 400))
        let (exit, console) = AuthCodeRunTests.run(transport: transport)
        #expect(exit == .tokenEndpoint)
        #expect(console.out == "")
        #expect(console.err == "authcode: error: the token endpoint refused: 400 error=invalid_grant: \(Self.escaped) (\(CLI.token))\n")
    }

    @Test(arguments: ["access_token", "refresh_token"])
    func printedFieldWithControlsIsExit8(field: String) {
        let body = field == "access_token" ? #"{"access_token":"\#(Self.hostileJSON)"}"# : #"{"access_token":"at-1","refresh_token":"\#(Self.hostileJSON)"}"#
        let (exit, console) = AuthCodeRunTests.run(["--print", field], transport: AuthCodeRunTests.server(token: Self.tokenAnswer(body)))
        #expect(exit == .malformedResponse)
        #expect(console.out == "", "nothing raw on stdout")
        #expect(console.err == "authcode: error: the token response's \(field) holds control characters; not printed\n")
    }

    @Test func printedHeaderWithControlsIsExit8() {
        let body = #"{"access_token":"at-1","token_type":"Bearer\u001b[2J"}"#
        let (exit, console) = AuthCodeRunTests.run(["--print", "header"], transport: AuthCodeRunTests.server(token: Self.tokenAnswer(body)))
        #expect(exit == .malformedResponse)
        #expect(console.out == "")
        #expect(console.err == "authcode: error: the token response's token_type holds control characters; not printed\n")
    }

    /// `--print code` is JSON: controls in the server's code or iss become \u escapes.
    @Test func printCodeEscapesEveryControl() {
        let transport = AuthCodeRunTests.server(authorize: { state in
            AuthCodeRunTests.redirect("\(CLI.redirect)?code=c%C2%9Bx%E2%80%AEy&state=\(state)")
        })
        let (exit, console) = AuthCodeRunTests.run(["--print", "code"], transport: transport)
        #expect(exit == .success)
        #expect(console.out.hasPrefix(#"{"code":"c\u009bx\u202ey","state":"#), "\(console.out)")
        #expect(!console.out.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
    }

    @Test func jsonTextEscapesTerminalControls() {
        #expect(JSONText.quote("a\u{7F}b\u{85}c\u{2066}d\u{1B}é") == #""a\u007fb\u0085c\u2066d\u001bé""#)
    }

    /// The same hostile text as a JSON string literal.
    static let hostileJSON = #"x\u001b]0;pwned\u0007\u009b2J\u202eevil\u007f"#
}
