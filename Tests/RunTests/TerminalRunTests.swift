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
struct TerminalRunTests {
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
        #expect(console.err == "authcode: error: the token endpoint refused: 400 error=invalid_grant: \(Self.escaped) (\(AuthCodeRunTests.CLI.token))\n")
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
            AuthCodeRunTests.redirect("\(AuthCodeRunTests.CLI.redirect)?code=c%C2%9Bx%E2%80%AEy&state=\(state)")
        })
        let (exit, console) = AuthCodeRunTests.run(["--print", "code"], transport: transport)
        #expect(exit == .success)
        #expect(console.out.hasPrefix(#"{"code":"c\u009bx\u202ey","state":"#), "\(console.out)")
        #expect(!console.out.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
    }

    // Moved from EndToEndTests/TerminalOutputTests: the fixture's
    // error-control and token-control scenarios (Fixtures/server/authorize.py
    // CONTROL_TEXT: an OSC retitle, BEL, a CSI, C1 CSI, a bidi override, DEL).
    static let control = "Denied\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}31m\u{202E}evil\u{7F}"
    static let controlEscaped = #"Denied\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\x7f"#
    static let controlJSON = #"Denied\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eevil\u007f"#

    static func expectNoControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        #expect(controls.isEmpty, "raw control characters: \(controls.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    @Test(arguments: [false, true])
    func errorDescriptionIsEscaped(verbose: Bool) {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            server.validate(exchange).map { server.answer($0, [("error", "access_denied"), ("error_description", Self.control)]) } ?? server.refusal
        }
        let ran = authcode(server.publicClient() + (verbose ? ["-v"] : []), server: server)
        #expect(ran.exit == .authorizationError, "\(ran)")
        #expect(ran.out.isEmpty)
        #expect(ran.errorLine == "authcode: error: the authorization server answered error=access_denied: \(Self.controlEscaped) (\(ScriptedServer.redirect))", "\(ran)")
        #expect(ran.err.hasSuffix(ran.errorLine! + "\n"))
        Self.expectNoControls(ran.err)
        #expect(ran.sent == ["POST /authorize"])
    }

    /// A token body whose every field holds the controls.
    static func hostileTokens() -> ScriptedServer {
        let server = ScriptedServer()
        server.on("/token") { _, _ in
            .json(#"{"access_token":"at-\#(Self.controlJSON)","token_type":"Bearer\#(Self.controlJSON)","refresh_token":"rt-\#(Self.controlJSON)"}"#)
        }
        return server
    }

    @Test(arguments: ["access_token", "refresh_token", "header"])
    func printedFieldOfAHostileBodyIsExit8(field: String) {
        let server = Self.hostileTokens()
        let ran = authcode(server.publicClient() + ["--print", field], server: server)
        let name = field == "header" ? "token_type" : field
        expectFailure(ran, .malformedResponse, "authcode: error: the token response's \(name) holds control characters; not printed\n")
        #expect(ran.sent == ["POST /authorize", "POST /token"])
    }

    /// The JSON body is printed as received: JSON escapes keep it free of raw controls.
    @Test func jsonOutputIsTheBodyAsReceived() {
        let server = Self.hostileTokens()
        let ran = authcode(server.publicClient(), server: server)
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.out == #"{"access_token":"at-\#(Self.controlJSON)","token_type":"Bearer\#(Self.controlJSON)","refresh_token":"rt-\#(Self.controlJSON)"}"# + "\n")
        Self.expectNoControls(ran.out)
    }

    /// The same hostile text as a JSON string literal.
    static let hostileJSON = #"x\u001b]0;pwned\u0007\u009b2J\u202eevil\u007f"#
}
