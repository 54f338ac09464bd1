import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow
@testable import CLI

/// A batch's output shapes (CLI/BatchPrinter.swift, README "Batch"), all
/// made in the CLI from the outcomes Flow's runner hands over in input
/// order: through `AuthCode.run` over a server in memory, and the printer
/// on its own for what a server cannot easily provoke.
struct BatchPrinterTests {
    /// Codes are the user's name; the token endpoint refuses `refuse`'s.
    static func server(refuse: String? = nil) -> ScriptedTransport {
        ScriptedTransport { request in
            let fields = AuthCodeRunTests.parameters(request)
            if request.url.hasPrefix(CLI.token) {
                let user = fields["code"] ?? ""
                if user == refuse {
                    return HTTPResponse(status: 400, headers: [HTTPHeader("Content-Type", "application/json")],
                                        body: Array(#"{"error":"invalid_grant"}"#.utf8))
                }
                return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                                    body: Array(#"{"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}"#.utf8))
            }
            return AuthCodeRunTests.redirect("\(CLI.redirect)?code=\(fields["username"] ?? "")&state=\(fields["state"] ?? "")")
        }
    }

    static func run(_ csv: String, _ extra: [String] = [], transport: ScriptedTransport) -> (ExitCode, CapturingConsole) {
        let path = CLI.file(Array(csv.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = CapturingConsole()
        let code = AuthCode.run(arguments: CLI.arguments(["--users", path, "--parallel", "2"] + extra), environment: [:], console: console,
                                reader: ValueReader(readStandardInput: { nil }), transport: transport.factory)
        return (code, console)
    }

    static let users = "username,password\nu1,pw-1\nu2,pw-2\nu3,pw-3\n"

    static func token(_ line: Int, _ user: String) -> String {
        #"{"line":\#(line),"user":"\#(user)","token":{"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}}"# + "\n"
    }

    @Test func jsonLinesInInputOrderWithTheFailureInItsPlace() {
        let (exit, console) = Self.run(Self.users, transport: Self.server(refuse: "u2"))
        #expect(exit == .batchFailed)
        #expect(console.out == Self.token(1, "u1")
                + #"{"line":2,"user":"u2","error":{"exit":7,"message":"the token endpoint refused: 400 error=invalid_grant (\#(CLI.token))"}}"# + "\n"
                + Self.token(3, "u3"))
        #expect(console.err == "authcode: 1 of 3 records failed; see the JSON lines\n")
    }

    @Test func everyRecordMintedIsExitZeroAndSaysNothing() {
        let (exit, console) = Self.run(Self.users, transport: Self.server())
        #expect(exit == .success)
        #expect(console.out == Self.token(1, "u1") + Self.token(2, "u2") + Self.token(3, "u3"))
        #expect(console.err == "")
    }

    /// `--print FIELD`: one value per line, an empty line for a failure,
    /// whose error goes to stderr naming its line.
    @Test func aFieldPerLineAndErrorsOnStderr() {
        let (exit, console) = Self.run(Self.users, ["--print", "access_token"], transport: Self.server(refuse: "u2"))
        #expect(exit == .batchFailed)
        #expect(console.out == "at-u1\n\nat-u3\n")
        #expect(console.err == "authcode: error: line 2: the token endpoint refused: 400 error=invalid_grant (\(CLI.token))\n"
                + "authcode: 1 of 3 records failed; see the error lines above\n")
    }

    /// A result the format cannot print fails its record like any error.
    @Test func aFormatThatCannotPrintTheResultFailsTheRecord() {
        let (exit, console) = Self.run("username\nu1\n", ["--print", "id_token"], transport: Self.server())
        #expect(exit == .batchFailed)
        #expect(console.out == "\n")
        #expect(console.err == "authcode: error: line 1: the token response has no id_token to print\n"
                + "authcode: 1 of 1 record failed; see the error lines above\n")
    }

    @Test func quietLeavesOutTheSummary() {
        let (exit, console) = Self.run(Self.users, ["-q"], transport: Self.server(refuse: "u3"))
        #expect(exit == .batchFailed)
        #expect(console.err == "")
    }

    /// The record's own secrets are scrubbed from its error, in both shapes;
    /// a record without a user field is `null`.
    @Test(arguments: [PrintField.json, .accessToken])
    func anErrorIsScrubbedOfTheRecordsSecrets(field: PrintField) {
        let flow = Redactor()
        flow.remember("pw-of-the-record")
        let error = FlowError.oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant", description: "bad password pw-of-the-record\u{7}"),
                                                  at: "https://as.example/token"))
        let printed = BatchPrinter(field: field, execInfo: nil)
            .printed(RecordOutcome(line: 4, user: nil, result: .failure(error), secrets: flow.remembered))
        #expect(printed.failed)
        if field == .json {
            #expect(printed == PrintedRecord(stdout: #"{"line":4,"user":null,"error":{"exit":7,"message":"the token endpoint refused: 400 error=invalid_grant: bad password [redacted]\\x07 (https://as.example/token)"}}"# + "\n",
                                             failed: true))
        } else {
            #expect(printed == PrintedRecord(stdout: "\n", stderr: "authcode: error: line 4: the token endpoint refused: 400 error=invalid_grant: bad password [redacted]\\x07 (https://as.example/token)\n",
                                             failed: true))
        }
    }

    @Test(arguments: [
        (PrintField.json, "stdout", 1, 1, "authcode: 1 of 1 record failed; see the JSON lines"),
        (.json, "out.jsonl", 2, 5, "authcode: 2 of 5 records failed; see the JSON lines in out.jsonl"),
        (.header, "out.txt", 3, 3, "authcode: 3 of 3 records failed; see the error lines above"),
    ])
    func summary(field: PrintField, outputName: String, failed: Int, done: Int, expected: String) {
        #expect(BatchPrinter(field: field, execInfo: nil).summary(BatchTally(done: done, failed: failed), outputName: outputName) == expected)
    }
}
