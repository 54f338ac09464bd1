import Foundation
import Testing
@testable import CLI

/// README.md's option table lists exactly the options `--help` lists: a
/// new option is documented in both, a removed one leaves both.
struct ReadmeOptionTableTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// Every `--name` in the first column of the table under `| option | meaning |`.
    static func documentedOptions() throws -> Set<String> {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "| option | meaning |") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var names = Set<String>()
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            // The first cell ends at the first `|` that is not escaped (`S256\|plain`).
            var firstCell = ""
            var previous: Character = " "
            for character in line.dropFirst() {
                if character == "|" && previous != "\\" { break }
                firstCell.append(character)
                previous = character
            }
            let regex = try NSRegularExpression(pattern: "--([a-z][a-z0-9-]*)")
            let range = NSRange(firstCell.startIndex..., in: firstCell)
            for match in regex.matches(in: firstCell, range: range) {
                names.insert(String(firstCell[Range(match.range(at: 1), in: firstCell)!]))
            }
        }
        return names
    }

    @Test func readmeTableMatchesTheOptionTable() throws {
        let documented = try Self.documentedOptions()
        let declared = Set(OptionTable.all.map(\.long))
        #expect(documented.subtracting(declared).isEmpty, "in README.md but not an option: \(documented.subtracting(declared).sorted())")
        #expect(declared.subtracting(documented).isEmpty, "options missing from README.md's table: \(declared.subtracting(documented).sorted())")
    }

    @Test func readmeListsEveryShortName() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        for declaration in OptionTable.all {
            guard let short = declaration.short else { continue }
            #expect(text.contains("-\(short), --\(declaration.long)") || text.contains("-\(short)/--\(declaration.long)"),
                    "README.md does not show -\(short) for --\(declaration.long)")
        }
    }
}
