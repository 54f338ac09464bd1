import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

/// A batch's output shapes through the whole command (CLI/BatchPrinter.swift,
/// README "Batch"): JSON lines in input order, `--print FIELD` with errors on
/// stderr, the summary and `-q`, over a server in memory whose codes are the
/// users' names. Moved from CLITests/BatchPrinterTests.
struct BatchOutputRunTests {
    /// A login form at the authorization endpoint (a record's fields are
    /// `--form` values, which only a form receives: README "How the walk works", step 2);
    /// codes are the user's name; the token endpoint refuses `refuse`'s.
    static func server(refuse: String? = nil) -> ScriptedTransport {
        ScriptedTransport { request in
            let fields = AuthCodeRunTests.parameters(request)
            if request.url.hasPrefix(AuthCodeRunTests.CLI.authorize) {
                return .html(#"<form method="post" action="https://as.example/login"><input type="hidden" name="txn" value="\#(fields["state"] ?? "")">"#
                             + #"<input name="username"><input type="password" name="password"><button>Sign in</button></form>"#)
            }
            if request.url.hasPrefix(AuthCodeRunTests.CLI.token) {
                let user = fields["code"] ?? ""
                if user == refuse {
                    return HTTPResponse(status: 400, headers: [HTTPHeader("Content-Type", "application/json")],
                                        body: Array(#"{"error":"invalid_grant"}"#.utf8))
                }
                return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                                    body: Array(#"{"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}"#.utf8))
            }
            return AuthCodeRunTests.redirect("\(AuthCodeRunTests.CLI.redirect)?code=\(fields["username"] ?? "")&state=\(fields["txn"] ?? "")")
        }
    }

    static func run(_ csv: String, _ extra: [String] = [], transport: ScriptedTransport) -> (ExitCode, Ran) {
        let file = try! TempFile(csv)
        let ran = authcode(AuthCodeRunTests.CLI.arguments(["--users", file.path, "--parallel", "2"] + extra), transport: transport)
        return (ran.exit, ran)
    }

    static let users = "username,password\nu1,pw-1\nu2,pw-2\nu3,pw-3\n"

    static func token(_ line: Int, _ user: String) -> String {
        #"{"line":\#(line),"user":"\#(user)","token":{"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}}"# + "\n"
    }

    @Test func jsonLinesInInputOrderWithTheFailureInItsPlace() {
        let (exit, console) = Self.run(Self.users, transport: Self.server(refuse: "u2"))
        #expect(exit == .batchFailed)
        #expect(console.out == Self.token(1, "u1")
                + #"{"line":2,"user":"u2","error":{"exit":7,"message":"the token endpoint refused: 400 error=invalid_grant (\#(AuthCodeRunTests.CLI.token))"}}"# + "\n"
                + Self.token(3, "u3"))
        #expect(console.err == "authcode: 1 of 3 records failed; see the JSON lines\n")
    }

    @Test func everyRecordMintedIsExitZeroAndSaysNothing() {
        let (exit, console) = Self.run(Self.users, transport: Self.server())
        #expect(exit == .success)
        #expect(console.out == Self.token(1, "u1") + Self.token(2, "u2") + Self.token(3, "u3"))
        #expect(console.err == "")
    }

    /// `--print FIELD`: one value per line and nothing for a failure (a
    /// load tool's feeder would take an empty line for a user), whose error
    /// goes to stderr naming its file line — the CSV header is line 1 — and
    /// its user (issue 31 item 11).
    @Test func aFieldPerLineAndErrorsOnStderr() {
        let (exit, console) = Self.run(Self.users, ["--print", "access_token"], transport: Self.server(refuse: "u2"))
        #expect(exit == .batchFailed)
        #expect(console.out == "at-u1\nat-u3\n")
        #expect(console.err == "authcode: error: line 3 (user u2): the token endpoint refused: 400 error=invalid_grant (\(AuthCodeRunTests.CLI.token))\n"
                + "authcode: 1 of 3 records failed; see the error lines above\n")
    }

    /// A result the format cannot print fails its record like any error.
    @Test func aFormatThatCannotPrintTheResultFailsTheRecord() {
        let (exit, console) = Self.run("username,password\nu1,pw-1\n", ["--print", "id_token"], transport: Self.server())
        #expect(exit == .batchFailed)
        #expect(console.out == "")
        #expect(console.err == "authcode: error: line 2 (user u1): the token response has no id_token to print\n"
                + "authcode: 1 of 1 record failed; see the error lines above\n")
    }

    @Test func quietLeavesOutTheSummary() {
        let (exit, console) = Self.run(Self.users, ["-q"], transport: Self.server(refuse: "u3"))
        #expect(exit == .batchFailed)
        #expect(console.err == "")
    }
}
