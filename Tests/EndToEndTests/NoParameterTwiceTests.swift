import Foundation
import Testing

/// No parameter is ever sent twice (RFC 6749 §3.1): a name authcode sets
/// itself in the authorization request is exit 2 before any request,
/// whether it comes as `--param`, as `--form` (POSTed with the request and
/// filled into forms on the way) or as a `--users` column; the message
/// names the flag (or column) and what to use instead.
@Suite("No parameter sent twice")
struct NoParameterTwiceTests {
    static let reserved: [(String, String)] = [
        ("response_type", "authcode always asks for response_type=code, the authorization-code grant"),
        ("client_id", "use --client-id"),
        ("redirect_uri", "use --redirect-uri"),
        ("scope", "use --scope"),
        ("state", "authcode sends a fresh state in every run and checks it in the answer"),
        ("nonce", "authcode sends a fresh nonce when scope has openid and checks it in the id_token"),
        ("code_challenge", "use --pkce"),
        ("code_challenge_method", "use --pkce"),
        ("response_mode", "use --response-mode"),
        ("request", "authcode sends the authorization parameters itself; a request object would carry them twice"),
        ("request_uri", "authcode sends the authorization parameters itself; a pushed request would carry them twice"),
    ]

    static func reason(_ name: String, _ instead: String) -> String {
        "is not allowed: authcode sets '\(name)' in the authorization request itself (\(instead))"
    }

    @Test(arguments: reserved)
    func formNameIsExit2(name: String, instead: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["--scope", "openid", "--form", "\(name)=mine"])
        expectFailure(result, exit: 2, [])
        #expect(result.errorLine == "authcode: error: '--form \(name)=…' \(Self.reason(name, instead))", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing sent")
    }

    @Test(arguments: reserved)
    func paramNameIsExit2(name: String, instead: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["--scope", "openid", "--param", "\(name)=mine"])
        expectFailure(result, exit: 2, [])
        #expect(result.errorLine == "authcode: error: '--param \(name)=…' \(Self.reason(name, instead))", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing sent")
    }

    /// A CSV column: the header names it for every record, so the whole run
    /// stops before any request (not even discovery).
    @Test(arguments: reserved)
    func usersColumnIsExit2BeforeAnyRequest(name: String, instead: String) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("username,password,\(name)\nuser1,pw-1,mine\nuser2,pw-2,mine\n")
        let result = try await run(fx.publicClient("users") + ["--users", file.path])
        expectFailure(result, exit: 2, [])
        #expect(result.errorLine == "authcode: error: the --users column \"\(name)\" \(Self.reason(name, instead)) (\(file.path))", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing sent")
    }

    /// JSON Lines: the first object is read before any request, so a
    /// reserved field there stops the run; one in a later object fails
    /// that record alone (exit 2), which never reaches the server.
    @Test func usersJSONLinesField() async throws {
        let fx = try await Fixture.make()
        let first = try TempFile(#"{"username":"user1","password":"pw-1","state":"mine"}"# + "\n")
        let stopped = try await run(fx.publicClient("users") + ["--users", first.path])
        #expect(stopped.errorLine == "authcode: error: the --users field \"state\" \(Self.reason("state", "authcode sends a fresh state in every run and checks it in the answer")) (\(first.path))", "\(stopped)")
        #expect(stopped.exitCode == 2)
        #expect(try fx.hits().isEmpty)

        let later = try TempFile(#"{"username":"user1","password":"pw-1"}"# + "\n" + #"{"username":"user2","password":"pw-2","scope":"admin"}"# + "\n")
        let result = try await run(fx.publicClient("users") + ["--users", later.path], timeout: 60)
        #expect(result.exitCode == 9, "\(result)")
        let lines = BatchTests.lines(result)
        #expect(lines.count == 2 && lines[0]["token"] != nil)
        let error = try #require(lines[1]["error"] as? [String: Any])
        #expect(error["exit"] as? Int == 2)
        #expect(error["message"] as? String == "bad record: the --users field \"scope\" \(Self.reason("scope", "use --scope"))")
        #expect(try fx.hits(to: "login").count == 1, "only the good record logged in")
    }
}
