import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow
@testable import CLI

struct HelpTests {
    @Test(arguments: OptionTable.all.map(\.long))
    func everyOptionIsDocumented(long: String) throws {
        let spec = try #require(OptionTable.named(long))
        let entry = Help.entry(spec)
        #expect(Help.text.contains(entry))
        #expect(entry.hasPrefix("  " + (spec.short.map { "-\($0), " } ?? "    ") + spec.display))
        // The help text, wrapped, reads back word for word.
        #expect(entry.dropFirst(Help.helpColumn).split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
                    .hasSuffix(spec.help))
    }

    @Test(arguments: ExitCode.allCases)
    func everyExitCodeIsDocumented(code: ExitCode) {
        let entry = "\n  \(code.rawValue)  " + Help.wrap(code.summary, width: Help.width - 5).joined(separator: "\n     ") + "\n"
        #expect(Help.text.contains(entry))
    }

    @Test(arguments: [(ExitCode.success, 0), (.usage, 2), (.network, 3), (.authorizationError, 4), (.securityCheck, 5),
                      (.noAuthorizationResponse, 6), (.tokenEndpoint, 7), (.malformedResponse, 8), (.outputFailed, 1), (.batchFailed, 9)] as [(ExitCode, Int32)])
    func exitCodesNeverRenumber(code: ExitCode, value: Int32) {
        #expect(code.rawValue == value)
    }

    @Test(arguments: OptionSection.allCases)
    func everyGroupHasAHeading(group: OptionSection) {
        #expect(Help.text.contains("\n\(group.rawValue):\n"))
        #expect(OptionTable.all.contains { $0.section == group })
    }

    @Test func structure() {
        let text = Help.text
        #expect(text.hasPrefix("authcode \(Version.current) — "))
        for heading in ["USAGE:", "VALUES:", "OUTPUT:", "EXIT CODES:", "EXAMPLES:"] {
            #expect(text.contains("\n\(heading)\n"), "\(heading)")
        }
        #expect(text.hasSuffix("\n"))
        #expect(text.contains("AUTHCODE_CLIENT_SECRET"))
    }

    @Test(arguments: [
        ("client-secret", "AUTHCODE_CLIENT_SECRET"), ("issuer", "AUTHCODE_ISSUER"), ("max-hops", "AUTHCODE_MAX_HOPS"),
        ("connect-timeout", "AUTHCODE_CONNECT_TIMEOUT"), ("allow-http", "AUTHCODE_ALLOW_HTTP"),
    ])
    func environmentNames(long: String, expected: String) throws {
        #expect(try #require(OptionTable.named(long)).environmentName == expected)
    }

    @Test func everyLineFitsIn80Columns() {
        for line in Help.text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test func optionNamesAreUnique() {
        #expect(Set(OptionTable.all.map(\.long)).count == OptionTable.all.count)
        let shorts = OptionTable.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
        #expect(Set(shorts) == ["v", "q", "H", "k", "h", "o", "K"])
    }

    @Test(arguments: [
        (["--help"], ParsedCommand.help), (["-h"], .help), (["--bogus", "--help"], .help), (["--timeout", "0", "-h"], .help),
        (["--version"], .version), (["extra", "--version"], .version), (CLI.arguments(["--version", "--help"]), .version),
        (["-vh"], .help), (["-kh"], .help),
    ])
    func helpAndVersionWinAnywhere(arguments: [String], expected: ParsedCommand) throws {
        #expect(try CLI.parse(arguments) == expected)
    }

    @Test func environmentCannotAskForHelp() throws {
        let command = try CLI.parse(CLI.arguments(), environment: ["AUTHCODE_HELP": "1", "AUTHCODE_VERSION": "1"])
        guard case .run = command else { Issue.record("expected a run, got \(command)"); return }
    }
}
