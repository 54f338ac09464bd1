import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Exit 6 (no authorization response reached), 7 (the token endpoint
/// refused) and 8 (a malformed answer), README.md "Exit codes", each with
/// its whole stderr, an excerpt never the page, and no secret. Moved from
/// EndToEndTests/WalkAndTokenFailureTests (bodies over 4 MiB, refused by
/// libcurl's transport, stay there).
struct WalkFailureRunTests {
    static let note = PageTextRunTests.note

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var extra: [String] = []
        let exit: ExitCode
        /// stderr, given the server.
        let err: @Sendable (ScriptedServer) -> String
        var tokenRequested = false
        let setUp: @Sendable (ScriptedServer) -> Void
        var testDescription: String { name }
    }

    static let hopsHint = "Raise --max-hops if the server really needs more steps.\n"
    static let serverError = "<html><body><h1>Internal Server Error</h1></body></html>"

    static func authorize(_ response: HTTPResponse) -> @Sendable (ScriptedServer) -> Void {
        { $0.on("/authorize") { _, _ in response } }
    }

    static func token(_ response: HTTPResponse) -> @Sendable (ScriptedServer) -> Void {
        { $0.on("/token") { _, _ in response } }
    }

    static let cases: [Case] = [
        Case(name: "a page without a form elsewhere", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: the page has no form to fill in: nothing here (\($0.url("/somewhere")))\n" },
             setUp: { server in
                 server.on("/authorize") { _, _ in .redirect("/somewhere") }
                 server.on("/somewhere") { _, _ in .html("<p>nothing here</p>") }
             }),
        Case(name: "a loop", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: redirect loop: the same GET came round again with the same cookies (\($0.url("/a")))\n" },
             setUp: { server in
                 server.on("/authorize") { _, _ in .redirect("a") }
                 server.on("/a") { _, _ in .redirect("a") }
             }),
        Case(name: "a long chain", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: no authorization response after 20 hops (\($0.url("/hop21")))\n" + hopsHint },
             setUp: { WalkDecisionRunTests.chain($0, hops: 25) }),
        Case(name: "a long chain, --max-hops 5", extra: ["--max-hops", "5"], exit: .noAuthorizationResponse,
             err: { note + "authcode: error: no authorization response after 5 hops (\($0.url("/hop6")))\n" + hopsHint },
             setUp: { WalkDecisionRunTests.chain($0, hops: 15) }),
        Case(name: "302 without a Location", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: 302 redirect without a Location header (\($0.authorizeURL))\n" },
             setUp: authorize(HTTPResponse(status: 302))),
        Case(name: "a Location that is not a URI", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: 302 redirect to a Location that is not a URI (\($0.authorizeURL))\n" },
             setUp: authorize(.redirect("http://[::1"))),
        Case(name: "a page that is not UTF-8", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: the page has no form to fill in: caf\u{FFFD}\u{FFFD} bad bytes \u{FFFD}( (\($0.authorizeURL))\n" },
             setUp: authorize(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
                                           body: Array("<html><body><p>caf".utf8) + [0xFF, 0xFE] + Array(" bad bytes ".utf8) + [0xC3]
                                               + Array("(</p></body></html>".utf8)))),
        Case(name: "404", exit: .noAuthorizationResponse,
             err: { note + "authcode: error: unexpected 404 answer: unknown scenario (\($0.authorizeURL))\n" },
             setUp: authorize(.text("unknown scenario\n", status: 404))),
        Case(name: "token 400 invalid_grant", exit: .tokenEndpoint,
             err: { "authcode: error: the token endpoint refused: 400 error=invalid_grant: The code has expired (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: token(.json(#"{"error":"invalid_grant","error_description":"The code has expired"}"#, status: 400))),
        Case(name: "token 401 invalid_client", exit: .tokenEndpoint,
             err: { "authcode: error: the login worked, but the token endpoint refused: 401 error=invalid_client: Client authentication failed (\($0.tokenURL))\n"
                 + "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header).\n" },
             tokenRequested: true, setUp: token(.json(#"{"error":"invalid_client","error_description":"Client authentication failed"}"#, status: 401))),
        Case(name: "token 500", exit: .tokenEndpoint,
             err: { "authcode: error: the token endpoint answered 500 with \(serverError.utf8.count) bytes of text/html (not shown: it may hold tokens) (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: token(.text(serverError, status: 500, type: "text/html"))),
        Case(name: "token body not JSON", exit: .malformedResponse,
             err: { "authcode: error: the token endpoint's answer is not a JSON object: 200 with 9 bytes of application/json (not shown: it may hold tokens) (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: token(.json("{not json"))),
        Case(name: "token without access_token", exit: .malformedResponse,
             err: { "authcode: error: the token endpoint's answer has no access_token (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: token(.json(#"{"token_type":"Bearer"}"#))),
        Case(name: "token nested too deep", exit: .malformedResponse,
             err: { "authcode: error: the token endpoint's answer is not a JSON object: 200 with 20000 bytes of application/json (not shown: it may hold tokens) (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: token(.json(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)))),
        Case(name: "an id_token that is not a JWT", extra: ["--scope", "openid"], exit: .malformedResponse,
             err: { "authcode: error: the code was redeemed, but the token response was refused: the id_token is not a JWT:"
                 + " not a compact JWS (three base64url parts separated by dots) (\($0.tokenURL))\n" },
             tokenRequested: true, setUp: { server in server.behaviour.withLock { $0.rewrite = { String($0.dropLast()) + #","id_token":"not-a-jwt"}"# } } }),
    ]

    @Test(arguments: cases)
    func failure(_ c: Case) {
        let server = ScriptedServer()
        c.setUp(server)
        let ran = authcode(server.confidential() + c.extra, env: ScriptedServer.demoSecretEnv, server: server)
        expectFailure(ran, c.exit, c.err(server))
        #expect(ran.requests.contains { $0.path == "/token" } == c.tokenRequested, "\(ran)")
        #expect(ran.err.utf8.count < 4_096, "an excerpt, not the body")
        expectNoSecrets(ran, server: server)
    }

    @Test func tokenErrorWithVerboseTraceKeepsSecretsOut() {
        let server = ScriptedServer(clients: ["weird:app id": "p@ss:w/rd+ =%&"])
        server.on("/token") { _, _ in .json(#"{"error":"invalid_client","error_description":"Client authentication failed"}"#, status: 401) }
        let ran = authcode(server.endpoints + ["--client-id", "weird:app id", "--redirect-uri", ScriptedServer.redirect, "-v"],
                           env: ["AUTHCODE_CLIENT_SECRET": "p@ss:w/rd+ =%&"], server: server)
        #expect(ran.exit == .tokenEndpoint && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine == "authcode: error: the login worked, but the token endpoint refused: 401 error=invalid_client: Client authentication failed (\(server.tokenURL))")
        #expect(ran.err.contains("> POST \(server.tokenURL)\n"), "-v traces the requests\n\(ran)")
        expectNoSecrets(ran, server: server, extra: ["p@ss:w/rd+ =%&", "p%40ss%3Aw%2Frd%2B+%3D%25%26"])
    }
}
