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
/// order: the printer on its own for what a server cannot easily provoke
/// (the whole command's shapes: RunTests/BatchOutputRunTests).
struct BatchPrinterTests {
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
            // Nothing on stdout for a failed record (issue 31 item 11).
            #expect(printed == PrintedRecord(stdout: "", stderr: "authcode: error: line 4: the token endpoint refused: 400 error=invalid_grant: bad password [redacted]\\x07 (https://as.example/token)\n",
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
