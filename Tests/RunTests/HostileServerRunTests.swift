import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Issue 26's decisions that need no socket, made by `AuthCode.run` over a
/// scripted server (the end-to-end tests against the fixture prove the same
/// on the wire: ProxyProviderTests, …).
struct HostileServerRunTests {
    static let password = "hunter2-pw"
    static let form = ["AUTHCODE_FORM": "username=alice\npassword=\(password)"]

    /// Class 1: the authorization request carries its parameters and no
    /// `--form` value, POST or GET (README "How the walk works", step 2).
    @Test(arguments: ["POST", "GET"])
    func noFormValueInTheAuthorizationRequest(method: String) throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--method", method], env: Self.form, server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.method.rawValue == method)
        let sent = authorize.form.merging(authorize.query) { first, _ in first }
        #expect(Set(sent.keys) == ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method"])
        #expect(!(authorize.url + String(decoding: authorize.body ?? [], as: UTF8.self)).contains(Self.password))
    }

    /// Class 4: two Location fields that differ, one carrying the code: exit
    /// 8, neither followed, nothing redeemed; identical ones are one field.
    @Test(arguments: [true, false])
    func twoLocationFields(differ: Bool) {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            let answer = server.answerCode(pending, user: "alice")
            let location = answer.headers.first(named: "Location") ?? ""
            let second = differ ? server.url("/elsewhere") : location
            return HTTPResponse(status: 302, headers: [HTTPHeader("Location", location), HTTPHeader("Location", second)])
        }
        let ran = authcode(server.publicClient(), server: server)
        if differ {
            expectFailure(ran, .malformedResponse,
                          "authcode: error: the 302 redirect has 2 Location fields that differ; following neither (\(server.authorizeURL))\n")
            #expect(ran.sent == ["POST /authorize"])
            #expect(server.codesRedeemed == 0)
        } else {
            expectToken(ran, from: server)
            #expect(ran.sent == ["POST /authorize", "POST /token"])
        }
    }

    /// Class 5: what fakes or reorders a line reaches the terminal escaped,
    /// in the -v trace and in a login's error text as in an error line.
    static let spoof = "ok\u{2028}authcode: note: fine\u{2029}\u{200E}\u{061C}\u{200B}\u{2060}\u{FEFF}"
    static let spoofEscaped = "ok\\u2028authcode: note: fine\\u2029\\u200e\\u061c\\u200b\\u2060\\ufeff"

    @Test func theTraceEscapesASpoofedHeader() {
        let server = ScriptedServer()
        let direct = server.route("/authorize")
        server.on("/authorize") { exchange, server in
            var answer = direct(exchange, server)
            answer.headers.append(HTTPHeader("Content-Type", "text/plain; \(Self.spoof)"))
            return answer
        }
        let ran = authcode(server.publicClient() + ["-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.contains("< Content-Type: text/plain; \(Self.spoofEscaped)\n"), "\(ran)")
        #expect(!ran.err.unicodeScalars.contains { [0x2028, 0x2029, 0x200E, 0x061C, 0x200B, 0x2060, 0xFEFF].contains($0.value) })
    }

    @Test func aLoginErrorTextIsEscaped() {
        let server = ScriptedServer(.loginAndConsent)
        let login = server.route("/login")
        server.on("/login") { exchange, server in
            // The login form again, its alert saying what the spoof says.
            var page = login(exchange, server)
            page.body = Array(String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: ScriptedServer.wrongPassword, with: Self.spoof).utf8)
            return page
        }
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@-"], stdin: "nope", server: server)
        #expect(ran.exit == .noAuthorizationResponse, "\(ran)")
        // A page's text collapses white space, U+2028/U+2029 included, as a person reads it; the rest is escaped.
        #expect(ran.errorLine == "authcode: error: login rejected: ok authcode: note: fine \\u200e\\u061c\\u200b\\u2060\\ufeff (\(server.url("/login")))",
                "\(ran)")
        #expect(!ran.err.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
    }

    /// Class 8: a DPoP-Nonce one byte over 1 KiB, or outside 1*NQCHAR, is
    /// exit 8, never sent back in a second proof; 1 KiB exactly is a nonce.
    @Test(arguments: [(String(repeating: "n", count: 1025), "longer than 1024 bytes"), ("a b", "not 1*NQCHAR (RFC 9449 §8.1)"), ("", "not 1*NQCHAR (RFC 9449 §8.1)")])
    func aDPoPNonceThatIsNoNonceIsExit8(nonce: String, why: String) {
        let server = ScriptedServer()
        server.on("/token") { _, _ in .json(#"{"error":"use_dpop_nonce"}"#, status: 400, headers: [HTTPHeader("DPoP-Nonce", nonce)]) }
        let ran = authcode(server.publicClient() + ["--dpop"], server: server)
        expectFailure(ran, .malformedResponse, "authcode: error: the answer's DPoP-Nonce is \(why); not sending it back (\(server.tokenURL))\n")
        #expect(server.requests(to: "/token").count == 1)
    }

    @Test func aDPoPNonceOf1KiBIsSentBack() {
        let server = ScriptedServer()
        let token = server.route("/token"), asked = Lock(false)
        server.on("/token") { exchange, server in
            let before = asked.withLock { (wasAsked: inout Bool) -> Bool in
                defer { wasAsked = true }
                return wasAsked
            }
            guard before else {
                return .json(#"{"error":"use_dpop_nonce"}"#, status: 400, headers: [HTTPHeader("DPoP-Nonce", String(repeating: "n", count: 1024))])
            }
            return token(exchange, server)
        }
        let ran = authcode(server.publicClient() + ["--dpop"], server: server)
        #expect(ran.exit == .success, "\(ran)")
        #expect(server.requests(to: "/token").count == 2)
    }
}
