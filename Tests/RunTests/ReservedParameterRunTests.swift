import Foundation
import Testing
@testable import Core
@testable import CLI

/// No parameter is ever sent twice (RFC 6749 §3.1): a name authcode sets
/// itself in the authorization request is exit 2 before any request,
/// whether it comes as `--param`, as `--form` (POSTed with the request and
/// filled into forms on the way) or as a `--users` column; the message
/// names the flag (or column) and what to use instead. Moved from
/// EndToEndTests/NoParameterTwiceTests.
struct ReservedParameterRunTests {
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
    func formNameIsExit2(name: String, instead: String) {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--scope", "openid", "--form", "\(name)=mine"], server: server)
        expectFailure(ran, .usage, "authcode: error: '--form \(name)=…' \(Self.reason(name, instead))\nSee 'authcode --help'.\n")
        #expect(ran.requests.isEmpty, "nothing sent")
    }

    @Test(arguments: reserved)
    func paramNameIsExit2(name: String, instead: String) {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--scope", "openid", "--param", "\(name)=mine"], server: server)
        expectFailure(ran, .usage, "authcode: error: '--param \(name)=…' \(Self.reason(name, instead))\nSee 'authcode --help'.\n")
        #expect(ran.requests.isEmpty, "nothing sent")
    }

    /// A CSV column: the header names it for every record, so the whole run
    /// stops before any request (not even discovery).
    @Test(arguments: reserved)
    func usersColumnIsExit2BeforeAnyRequest(name: String, instead: String) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile("username,password,\(name)\nuser1,pw-1,mine\nuser2,pw-2,mine\n")
        let ran = authcode(server.publicClient() + ["--users", file.path], server: server)
        expectFailure(ran, .usage, "authcode: error: the --users column \"\(name)\" \(Self.reason(name, instead)) (\(file.path))\n")
        #expect(ran.requests.isEmpty, "nothing sent")
    }

    /// JSON Lines: the first object is read before any request, so a
    /// reserved field there stops the run; one in a later object fails
    /// that record alone (exit 2), which never reaches the server.
    @Test func usersJSONLinesField() throws {
        let server = ScriptedServer(.users)
        let first = try TempFile(#"{"username":"user1","password":"pw-1","state":"mine"}"# + "\n")
        let stopped = authcode(server.publicClient() + ["--users", first.path], server: server)
        let state = Self.reason("state", "authcode sends a fresh state in every run and checks it in the answer")
        expectFailure(stopped, .usage, "authcode: error: the --users field \"state\" \(state) (\(first.path))\n")
        #expect(stopped.requests.isEmpty)

        let later = try TempFile(#"{"username":"user1","password":"pw-1"}"# + "\n" + #"{"username":"user2","password":"pw-2","scope":"admin"}"# + "\n")
        let ran = authcode(server.publicClient() + ["--users", later.path], server: server)
        #expect(ran.exit == .batchFailed, "\(ran)")
        let lines = BatchRunTests.lines(ran)
        #expect(lines.count == 2 && lines[0]["token"] != nil)
        let error = try #require(lines[1]["error"] as? [String: Any])
        #expect(error["exit"] as? Int == 2)
        #expect(error["message"] as? String == "bad record: the --users field \"scope\" \(Self.reason("scope", "use --scope"))")
        #expect(server.requests(to: "/login").count == 1, "only the good record logged in")
    }
}
