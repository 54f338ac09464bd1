import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Token answers that are hostile or spoiled (README.md "Security rules";
/// OAuth/TokenResponse.swift, HTTP/Quoting/EndpointKind.swift): numbers that are no
/// time never trap, an id_token of the wrong shape is exit 8, and a body
/// that holds a working token but does not parse is never quoted. The
/// code is redeemed for real; only the answer is spoiled. Moved from
/// EndToEndTests/AnswerDeliveryTests (HostileResponseTests) and
/// UnparsedTokenBodyTests.
struct TokenResponseRunTests {
    /// JSON literals no arithmetic may trap on (Fixtures/server/hostile.py).
    static let literals = ["neg-huge": "-1e999", "pos-huge": "1e999", "big": "1e300", "nan-string": #""nan""#, "string": #""1700000000""#,
                           "null": "null", "pow70": "1180591620717411303424"]

    /// The token body with `"id_token": value` added (raw JSON).
    static func withIDToken(_ value: String) -> ScriptedServer {
        ScriptedServer(behaviour: .init(rewrite: { String($0.dropLast()) + #","id_token":\#(value)}"# }))
    }

    /// An id_token whose exp is the literal, for this server's client.
    static func idToken(exp: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return JSONText.quote(ScriptedServer.unsignedJWT(#"{"iss":"https://as.example","sub":"alice","aud":"public-app","exp":\#(exp),"iat":\#(now)}"#))
    }

    /// exp must be a finite JSON number.
    @Test(arguments: ["neg-huge", "pos-huge", "nan-string", "string", "null"])
    func idTokenExpThatIsNoTimeIsExit5(variant: String) {
        let server = Self.withIDToken(Self.idToken(exp: Self.literals[variant]!))
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: the code was redeemed, but the token response was refused: id_token exp is not a finite JSON number (\(server.tokenURL))\n")
        #expect(server.requests(to: "/token").count == 1)
    }

    /// Far-future finite ones are fine.
    @Test(arguments: ["big", "pow70"])
    func idTokenExpFarInTheFutureIsValid(variant: String) {
        let server = Self.withIDToken(Self.idToken(exp: Self.literals[variant]!))
        expectToken(authcode(server.publicClient(), server: server), from: server)
    }

    @Test(arguments: [
        ("42", "the id_token is neither a string nor null"),
        (JSONText.quote(ScriptedServer.unsignedJWT("[1,2]")), "the id_token's payload is not a JSON object"),
    ])
    func idTokenOfTheWrongShapeIsExit8(value: String, says: String) {
        let server = Self.withIDToken(value)
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .malformedResponse, "authcode: error: the code was redeemed, but the token response was refused: \(says) (\(server.tokenURL))\n")
    }

    @Test func nullIdTokenIsNoIdToken() {
        let server = Self.withIDToken("null")
        let token = expectToken(authcode(server.publicClient(), server: server), from: server)
        #expect(token["id_token"] is NSNull)
    }

    /// expires_in is printed as received and never traps; expires_at refuses what is no lifetime.
    @Test(arguments: ["neg-huge", "pos-huge", "big", "nan-string", "null", "pow70"])
    func hostileExpiresIn(variant: String) {
        let server = ScriptedServer(behaviour: .init(expiresIn: Self.literals[variant]!))
        let json = authcode(server.publicClient(), server: server)
        expectToken(json, from: server)
        #expect(json.out.contains(#""expires_in":\#(Self.literals[variant]!),"#), "\(json)")
        let expiresAt = authcode(server.publicClient() + ["--print", "expires_at"], server: server)
        expectFailure(expiresAt, .malformedResponse, "authcode: error: the token response says nothing usable about expiry"
                      + " (no numeric expires_in, and the access token is not a JWT with exp)\n")
    }

    // MARK: bodies that hold a token but do not parse (Fixtures/server/unparsed.py)

    static let junkBefore = "<br />\n<b>Warning</b>:  session_start(): Session cannot be started after headers have already been sent"
        + " in <b>/srv/www/token.php</b> on line <b>12</b><br />\n"
    static let withheld = "(not shown: it may hold tokens)"

    /// The spoiled answer, given the real token body.
    enum Spoil: String, CaseIterable, Sendable {
        case junkBefore, junkAfter, badUTF8, truncated, textPlain, echo500, errorEcho

        func response(_ body: String) -> HTTPResponse {
            switch self {
            case .junkBefore: return .json(TokenResponseRunTests.junkBefore + body)
            case .junkAfter: return .json(body + "\n<!-- served by token.php in 0.2 ms -->\n")
            case .badUTF8:
                var bytes = Array(body.utf8)
                bytes.insert(contentsOf: [0x22, 0x63, 0x61, 0x66, 0xC3, 0x28, 0x22, 0x2C], at: 1)   // "caf\xC3(", first
                bytes.insert(contentsOf: Array(#""scope":"#.utf8), at: 1)
                return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: bytes)
            case .truncated: return .json(String(body.dropLast(12)))
            case .textPlain:
                let object = jsonObject(body) ?? [:]
                return .text("access_token=\(object["access_token"] as? String ?? "")&token_type=bearer", status: 200)
            case .echo500:
                return .text("<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1>"
                             + "<p>TypeError while sending the response:</p><pre>\(body)</pre></body></html>", status: 500, type: "text/html; charset=utf-8")
            case .errorEcho:
                return .json(#"{"error":"server_error","error_description":\#(JSONText.quote("could not send " + body))}"#, status: 500)
            }
        }

        var exit: ExitCode { self == .echo500 || self == .errorEcho ? .tokenEndpoint : .malformedResponse }

        func message(_ response: HTTPResponse) -> String {
            switch self {
            case .echo500: return "the token endpoint answered 500 with \(response.body.count) bytes of text/html \(TokenResponseRunTests.withheld)"
            case .errorEcho: return "the token endpoint refused: 500 error=server_error (error_description not shown: it quotes a token)"
            default:
                return "the token endpoint's answer is not a JSON object: 200 with \(response.body.count) bytes of \(response.mediaType ?? "?") \(TokenResponseRunTests.withheld)"
            }
        }
    }

    static func spoiled(_ spoil: Spoil) -> ScriptedServer {
        ScriptedServer(behaviour: .init(respond: spoil.response))
    }

    /// The answer the server sent, rebuilt from the token body it issued.
    static func sent(_ server: ScriptedServer, _ spoil: Spoil) -> HTTPResponse {
        spoil.response(server.lastTokenBody ?? "")
    }

    /// Scripted tokens: `at-` / `rt-` and 22 base64url characters.
    static func expectNoToken(in text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(text.firstMatch(of: /[ar]t-[A-Za-z0-9_-]{22}/) == nil, "a token reached the output:\n\(text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Spoil.allCases)
    func bodyIsNeverQuoted(spoil: Spoil) {
        let server = Self.spoiled(spoil)
        let ran = authcode(server.publicClient() + ["-v"], server: server)
        let line = "authcode: error: \(spoil.message(Self.sent(server, spoil))) (\(server.tokenURL))"
        #expect(ran.exit == spoil.exit && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine == line, "\(ran)")
        #expect(ran.err.hasSuffix(line + "\n"), "nothing after the error line\n\(ran)")
        Self.expectNoToken(in: ran.err + ran.out)
        #expect(ran.sent == ["POST /authorize", "POST /token"], "the code was spent")
        #expect(server.codesRedeemed == 1)
        expectNoSecrets(ran, server: server)
    }

    /// `-q`: the error line alone, and still no token.
    @Test func quietRunShowsTheLineOnly() {
        let server = Self.spoiled(.echo500)
        let ran = authcode(server.publicClient() + ["-q"], server: server)
        expectFailure(ran, .tokenEndpoint, "authcode: error: \(Spoil.echo500.message(Self.sent(server, .echo500))) (\(server.tokenURL))\n")
    }

    /// With `--users` the same text goes into the record's JSON line on
    /// stdout: no token there either.
    @Test(arguments: [Spoil.junkAfter, .echo500, .textPlain])
    func batchLineHoldsNoToken(spoil: Spoil) throws {
        let server = ScriptedServer(.users, behaviour: .init(respond: spoil.response))
        let users = try TempFile("username,password\nalice,wonderland\n")
        let ran = authcode(server.publicClient() + ["--users", users.path], server: server)
        #expect(ran.exit == .batchFailed, "\(ran)")
        let message = spoil.message(Self.sent(server, spoil)) + " (\(server.tokenURL))"
        #expect(ran.out == #"{"line":1,"user":"alice","error":{"exit":\#(spoil.exit.rawValue),"message":\#(JSONText.quote(message))}}"# + "\n", "\(ran)")
        #expect(ran.err == "authcode: 1 of 1 record failed; see the JSON lines\n", "\(ran)")
        Self.expectNoToken(in: ran.err + ran.out)
        #expect(server.codesRedeemed == 1)
    }
}
