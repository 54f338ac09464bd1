import Foundation
import Testing
import Core
@testable import CLI

/// README.md's exit-code table has one row per exit code authcode uses,
/// and names the cases a newcomer meets first under the code they get.
struct ReadmeExitCodeTests {
    /// Row text by code, from the table under `| code | meaning |`.
    static func rows() throws -> [Int32: String] {
        let text = try String(contentsOf: ReadmeOptionTableTests.readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "| code | meaning |") else { throw CocoaError(.fileReadCorruptFile) }
        var rows: [Int32: String] = [:]
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("| ") else { break }
            let cells = line.dropFirst(2).split(separator: "|", maxSplits: 1)
            guard let code = Int32(cells[0].trimmingCharacters(in: .whitespaces)) else {
                Issue.record("not a code: \(line)")
                continue
            }
            #expect(rows[code] == nil, "code \(code) twice")
            rows[code] = cells.count > 1 ? String(cells[1]) : ""
        }
        return rows
    }

    @Test func everyExitCodeHasOneRow() throws {
        let rows = try Self.rows()
        #expect(Set(rows.keys) == Set(ExitCode.allCases.map(\.rawValue)))
    }

    @Test(arguments: [
        (ExitCode.usage, "missing '--client-id <id>'"),
        (.usage, "looks like a user's values"),
        (.network, "cache lock"),
        (.securityCheck, "discovery document's `issuer`"),
        (.securityCheck, "RFC 9207"),
        (.noAuthorizationResponse, "one-time code"),
        (.tokenEndpoint, "invalid_client"),
        (.malformedResponse, "no discovery document"),
        (.malformedResponse, "`--print FIELD` absent"),
        (.batchFailed, "records failed"),
    ])
    func aCaseIsUnderItsCode(code: ExitCode, words: String) throws {
        let rows = try Self.rows()
        #expect(rows[code.rawValue]?.contains(words) == true, "README's row for \(code.rawValue) lacks \(words)")
    }
}
