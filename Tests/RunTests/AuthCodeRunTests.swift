import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

/// The first whole-command tests in-process, over a minimal scripted server
/// (RunSupport.swift has the fuller one the other files use).
struct AuthCodeRunTests {
    enum CLI {
        static let authorize = "https://as.example/authorize"
        static let token = "https://as.example/token"
        static let redirect = "http://127.0.0.1:8765/cb"

        static func arguments(_ extra: [String] = []) -> [String] {
            ["--authorize-url", authorize, "--token-url", token, "--client-id", "app", "--redirect-uri", redirect] + extra
        }
    }

    static let secret = "cl1ent-s3cret"
    static let code = "c0de-AbCdEf123"
    static let accessToken = "at-SECRET-token-1"
    static let refreshToken = "rt-SECRET-token-2"
    static let idToken = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + "." +
        Base64URL.encode(Array(#"{"iss":"https://as.example","aud":"app","exp":4102444800,"iat":1700000000,"sub":"alice"}"#.utf8)) + ".c2ln"
    static let tokenBody = #"{"access_token":"\#(accessToken)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refreshToken)","id_token":"\#(idToken)"}"#

    /// The parameters of an authorization request (POST body or GET query).
    static func parameters(_ request: HTTPRequest) -> [String: String] {
        let text = request.body.map { String(decoding: $0, as: UTF8.self) } ?? (URIReference(request.url)?.query ?? "")
        return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
    }

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [HTTPHeader("Location", location)])
    }

    /// A server whose authorization endpoint answers `authorize(state)` and
    /// whose token endpoint answers `token`.
    static func server(authorize: @escaping @Sendable (String) -> HTTPResponse = { redirect("\(CLI.redirect)?code=\(code)&state=\($0)") },
                       token: HTTPResponse = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                                                          body: Array(tokenBody.utf8))) -> ScriptedTransport {
        ScriptedTransport { request in
            if request.url.hasPrefix(CLI.token) { return token }
            if request.url.hasPrefix(CLI.authorize) { return authorize(parameters(request)["state"] ?? "") }
            if request.url.hasPrefix("https://as.example/login") {
                return redirect("\(CLI.redirect)?code=\(code)&state=\(parameters(request)["state"] ?? "")")
            }
            return HTTPResponse(status: 404)
        }
    }

    static func run(_ extra: [String] = [], transport: ScriptedTransport, environment: [String: String] = ["AUTHCODE_CLIENT_SECRET": secret]) -> (ExitCode, CapturingConsole) {
        let console = CapturingConsole()
        let code = AuthCode.run(arguments: CLI.arguments(extra), environment: environment, console: console,
                                reader: ValueReader(readStandardInput: { nil }), transport: transport.factory)
        return (code, console)
    }

    @Test func directRedirectSucceeds() throws {
        let transport = Self.server()
        let (exit, console) = Self.run(transport: transport)
        #expect(exit == .success)
        #expect(console.out == Self.tokenBody + "\n")
        #expect(console.err == "")
        try #require(transport.requests.count == 2)
        let (authorize, token) = (transport.requests[0], transport.requests[1])
        #expect(authorize.method == "POST" && authorize.url == CLI.authorize)
        #expect(token.method == "POST" && token.url == CLI.token)
        #expect(token.headers.first(named: "Authorization") == TokenRequest.basicAuthorization(clientID: "app", secret: Self.secret))
        #expect(token.headers.first(named: "Cookie") == nil)
        let sent = Self.parameters(token)
        #expect(sent["grant_type"] == "authorization_code" && sent["code"] == Self.code && sent["redirect_uri"] == CLI.redirect)
        let verifier = try #require(sent["code_verifier"])
        #expect(verifier.count == 43)
        #expect(Self.parameters(authorize)["code_challenge"] == Base64URL.encode(SHA256.hash(verifier.utf8)))
        #expect(!transport.requests.contains { $0.url.hasPrefix(CLI.redirect) }, "the redirect_uri is never fetched")
    }

    static let location = " (\(CLI.redirect))\n"

    @Test(arguments: [
        ("\(CLI.redirect)?code=\(code)&state=forged", ExitCode.securityCheck,
         "authcode: error: state mismatch: the authorization response is not for this request; the code is not redeemed" + location),
        ("\(CLI.redirect)?code=\(code)", .securityCheck, "authcode: error: the authorization response has no state; the code is not redeemed" + location),
        ("\(CLI.redirect)?error=access_denied&error_description=User+said+no&state=STATE", .authorizationError,
         "authcode: error: the authorization server answered error=access_denied: User said no" + location),
        ("\(CLI.redirect)?code=a&code=b&state=STATE", .securityCheck,
         "authcode: error: the authorization response has 'code' more than once; refusing to guess which is real" + location),
        ("\(CLI.redirect)?state=STATE", .malformedResponse, "authcode: error: the authorization response has neither code nor error" + location),
    ])
    func authorizationResponseFailures(location: String, exit expected: ExitCode, err: String) {
        let transport = Self.server(authorize: { Self.redirect(location.replacing("STATE", with: $0)) })
        let (exit, console) = Self.run(transport: transport)
        #expect(exit == expected)
        #expect(console.out == "")
        #expect(console.err == err)
        #expect(transport.requests.count == 1, "no token request after a failed check")
    }

    @Test(arguments: [
        (HTTPResponse(status: 302), ExitCode.noAuthorizationResponse, "302 redirect without a Location header"),
        (HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("boom".utf8)), .noAuthorizationResponse,
         "unexpected 500 answer: boom"),
        (HTTPResponse(status: 303, headers: [HTTPHeader("Location", "http://[::1/x")]), .noAuthorizationResponse,
         "303 redirect to a Location that is not a URI"),
    ])
    func walkFailures(response: HTTPResponse, exit expected: ExitCode, message: String) {
        let transport = Self.server(authorize: { _ in response })
        let (exit, console) = Self.run(transport: transport)
        #expect(exit == expected)
        #expect(console.out == "")
        // A POST walk that fails before any credentials were sent is tried
        // once more as GET (Flow/MethodFallback.swift), which fails alike;
        // the fallback's note is -v's (issue 31 item 3).
        #expect(console.err == "authcode: error: \(message) (\(CLI.authorize))\n")
        #expect(transport.requests.map(\.method) == ["POST", "GET"])
    }

    @Test(arguments: [
        (HTTPResponse(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"bad code"}"#.utf8)), ExitCode.tokenEndpoint,
         "authcode: error: the token endpoint refused: 400 error=invalid_grant: bad code (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array(#"{"token_type":"Bearer"}"#.utf8)), .malformedResponse,
         "authcode: error: the token endpoint's answer has no access_token (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array(#"{"access_token":"x","id_token":"a.b"}"#.utf8)), .malformedResponse,
         "authcode: error: the code was redeemed, but the token response was refused: the id_token is not a JWT: not a compact JWS (three base64url parts separated by dots) (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array(#"{"access_token":"x","id_token":42}"#.utf8)), .malformedResponse,
         "authcode: error: the code was redeemed, but the token response was refused: the id_token is neither a string nor null (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array((#"{"access_token":"x","id_token":"h."# + Base64URL.encode(Array(#"{"aud":"app","exp":4102444800}"#.utf8)) + #".c2ln"}"#).utf8)),
         .malformedResponse, "authcode: error: the code was redeemed, but the token response was refused: the id_token is not a JWT: the JWS header is not base64url (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array((#"{"access_token":"x","id_token":"e30."# + Base64URL.encode(Array(#"{"iss":"https://as.example","aud":"other","exp":4102444800}"#.utf8)) + #".c2ln"}"#).utf8)),
         .malformedResponse, "authcode: error: the code was redeemed, but the token response was refused: the id_token is not a JWT: the JWS header has no alg (\(CLI.token))\n"),
        (HTTPResponse(status: 200, body: Array((#"{"access_token":"x","id_token":"eyJhbGciOiJSUzI1NiJ9."# + Base64URL.encode(Array(#"{"iss":"https://as.example","aud":"other","exp":4102444800}"#.utf8)) + #".c2ln"}"#).utf8)),
         .securityCheck, "authcode: error: the code was redeemed, but the token response was refused: id_token aud does not contain this client 'app' (\(CLI.token))\n"),
        // No issuer known: the id_token's must be of the token endpoint's origin.
        (HTTPResponse(status: 200, body: Array((#"{"access_token":"x","id_token":"eyJhbGciOiJSUzI1NiJ9."# + Base64URL.encode(Array(#"{"iss":"https://evil.example","aud":"app","exp":4102444800}"#.utf8)) + #".c2ln"}"#).utf8)),
         .securityCheck, "authcode: error: the code was redeemed, but the token response was refused: id_token iss is not of the origin of https://as.example (no issuer is known: pass --issuer or --expect-iss) (\(CLI.token))\n"),
    ])
    func tokenFailures(response: HTTPResponse, exit expected: ExitCode, err: String) {
        let transport = Self.server(token: response)
        let (exit, console) = Self.run(transport: transport)
        #expect(exit == expected)
        #expect(console.out == "")
        #expect(console.err == err)
        #expect(transport.requests.count == 2)
    }

    /// Error lines are scrubbed of every secret the run has seen, even when
    /// the server echoes one back.
    @Test func errorLinesAreScrubbed() {
        let echo = HTTPResponse(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"code \#(Self.code) is not for \#(Self.secret)"}"#.utf8))
        let (exit, console) = Self.run(transport: Self.server(token: echo))
        #expect(exit == .tokenEndpoint)
        #expect(console.err == "authcode: error: the token endpoint refused: 400 error=invalid_grant: code [redacted] is not for [redacted] (\(CLI.token))\n")
        let page = HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<p>wrong password hunter2-pw</p>".utf8))
        let (exit2, console2) = Self.run(transport: Self.server(authorize: { _ in page }),
                                         environment: ["AUTHCODE_CLIENT_SECRET": Self.secret, "AUTHCODE_FORM": "password=hunter2-pw"])
        #expect(exit2 == .noAuthorizationResponse)
        // The error line carries the page text once (the fallback's note is -v's).
        #expect(console2.err == "authcode: error: unexpected 500 answer: wrong password [redacted] (\(CLI.authorize))\n")
    }

    @Test func printCodeMakesNoTokenRequest() throws {
        let transport = Self.server()
        let (exit, console) = Self.run(["--print", "code"], transport: transport)
        #expect(exit == .success)
        try #require(transport.requests.count == 1)
        let state = try #require(Self.parameters(transport.requests[0])["state"])
        let json = try #require(JSONValue.parse(Array(console.out.utf8)))
        let verifier = try #require(json["code_verifier"]?.stringValue)
        #expect(Base64URL.encode(SHA256.hash(verifier.utf8)) == Self.parameters(transport.requests[0])["code_challenge"])
        #expect(console.out == #"{"code":"\#(Self.code)","state":"\#(state)","iss":null,"code_verifier":"\#(verifier)","redirect_uri":"\#(CLI.redirect)"}"# + "\n")
    }

    @Test(arguments: [("access_token", accessToken), ("refresh_token", refreshToken), ("id_token", idToken)])
    func printField(field: String, expected: String) {
        let (exit, console) = Self.run(["--print", field], transport: Self.server())
        #expect(exit == .success)
        #expect(console.out == expected + "\n")
    }

    @Test func plainHTTPTokenEndpointIsRefusedBeforeTheCodeLeaves() {
        let transport = Self.server()
        let (exit, console) = Self.run(["--token-url", "http://as.example/token?x=1"], transport: transport)
        #expect(exit == .securityCheck)
        #expect(console.out == "")
        #expect(console.err == "authcode: error: refusing plain http to 'as.example': secrets would travel unencrypted (http://as.example/token)\n" +
            "Use https, or pass --allow-http if this network is trusted.\n")
        #expect(transport.requests.count == 1)
    }

    @Test func quietDropsHintsAndWarnings() {
        let transport = Self.server()
        let (exit, console) = Self.run(["-q", "--client-secret", "literal-secret", "--token-url", "http://as.example/token"], transport: transport, environment: [:])
        #expect(exit == .securityCheck)
        #expect(console.err == "authcode: error: refusing plain http to 'as.example': secrets would travel unencrypted (http://as.example/token)\n")
    }

    @Test func usageErrorSendsNothing() {
        let transport = Self.server()
        let console = CapturingConsole()
        let exit = AuthCode.run(arguments: ["--client-ids", "x"], environment: [:], console: console, transport: transport.factory)
        #expect(exit == .usage)
        #expect(console.out == "")
        #expect(console.err == "authcode: error: unknown option '--client-ids'\nDid you mean '--client-id'? See 'authcode --help'.\n")
        #expect(transport.requests.isEmpty)
    }

    static let secretHint = "authcode: hint: a client secret on the command line shows in 'ps' and shell history; use '--client-secret @FILE' or AUTHCODE_CLIENT_SECRET"
    static let passwordHint = "authcode: hint: a password on the command line shows in 'ps' and shell history; use '--form password=@FILE'"

    @Test(arguments: [
        (["--client-secret", "s3cret"], [:], [secretHint]),
        (["--client-secret=s3cret"], [:], [secretHint]),
        (["--form", "password=x"], [:], [passwordHint]),
        (["--client-secret", "s3cret", "--form", "user=a", "--form", "password=x"], [:], [secretHint, passwordHint]),
        (["--client-secret", "@FILE"], [:], []),
        ([], ["AUTHCODE_CLIENT_SECRET": "s3cret", "AUTHCODE_FORM": "password=x"], []),
        (["--form", "password=@FILE", "--form", "username=alice"], [:], []),
    ] as [([String], [String: String], [String])])
    func literalSecretWarning(extra: [String], env: [String: String], warnings: [String]) throws {
        let file = try TempFile("s3cret\n")
        let given = extra.map { $0.replacing("@FILE", with: "@" + file.path) }
        let (exit, console) = Self.run(given, transport: Self.server(), environment: env)
        #expect(exit == .success)
        #expect(console.err == warnings.map { $0 + "\n" }.joined())
    }

    @Test func literalSecretWarningGoesToStderr() {
        let (exit, console) = Self.run(["--client-secret", Self.secret], transport: Self.server(), environment: [:])
        #expect(exit == .success)
        #expect(console.err == Self.secretHint + "\n")
    }

    @Test func verboseTraceHoldsNoSecret() throws {
        let transport = Self.server(authorize: { Self.redirect("/login?state=\($0)") })
        let (exit, console) = Self.run(["-v", "--form", "password=hunter2-pw", "--form", "username=alice"], transport: transport)
        #expect(exit == .success)
        #expect(console.out == Self.tokenBody + "\n")
        #expect(transport.requests.map { "\($0.method) \(URIReference($0.url)?.withoutQuery ?? "")" } ==
            ["POST \(CLI.authorize)", "GET https://as.example/login", "POST \(CLI.token)"])
        #expect(console.err.contains("[redacted]"))
        #expect(console.err.contains("not fetched"))
        let basic = TokenRequest.basicAuthorization(clientID: "app", secret: Self.secret).dropFirst(6)
        let verifier = try #require(Self.parameters(transport.requests[2])["code_verifier"])
        for secret in [Self.secret, Self.code, Self.accessToken, Self.refreshToken, Self.idToken, String(basic), "hunter2-pw", verifier] {
            #expect(!console.err.contains(secret), "\(secret) leaked")
        }
    }
}
