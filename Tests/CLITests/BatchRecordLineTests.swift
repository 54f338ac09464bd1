import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Flow
@testable import CLI

/// A batch record's failure, in process: its JSON line and its stderr line
/// take the exit code and words of the one mapping (CLI/Errors/ErrorReport.swift).
struct BatchRecordLineTests {
    static func users(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "authcode-batch-lines-\(UUID().uuidString.prefix(8)).csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The token endpoint refuses the code of `bob`.
    static let server = AuthCodeRunTests.server(authorize: { state in
        AuthCodeRunTests.redirect("\(CLI.redirect)?code=\(AuthCodeRunTests.code)&state=\(state)")
    }, token: HTTPResponse(status: 400, headers: [HTTPHeader("Content-Type", "application/json")],
                           body: Array(#"{"error":"invalid_grant","error_description":"bad code"}"#.utf8)))

    @Test(arguments: [
        ("json", #"{"line":1,"user":"bob","error":{"exit":7,"message":"the token endpoint refused: 400 error=invalid_grant: bad code (https://as.example/token)"}}"# + "\n", ""),
        ("access_token", "\n", "authcode: error: line 1: the token endpoint refused: 400 error=invalid_grant: bad code (https://as.example/token)\n"),
    ])
    func aRefusedRecord(print: String, out: String, err: String) throws {
        let path = try Self.users("username\nbob\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (exit, console) = AuthCodeRunTests.run(["--users", path, "--print", print], transport: Self.server)
        #expect(exit == .batchFailed)
        #expect(console.out == out)
        #expect(console.err == err + (print == "json" ? "authcode: 1 of 1 record failed; see the JSON lines\n" : "authcode: 1 of 1 record failed; see the error lines above\n"))
    }
}
