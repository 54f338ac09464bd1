import Foundation
import Testing
@testable import Core
@testable import Flow
@testable import CLI

/// Old names and deprecations carried by the declaration (CLI/OptionIndex.swift,
/// OptionDeclaration.aliases and .deprecation): a renamed option keeps working
/// on the command line, in the environment and in config files, and says so.
/// No option of the table has one today, so a table of the test's own gives
/// `--max-hops` an old name and deprecates `--totp-field`.
struct OptionAliasTests {
    static let table = OptionIndex(OptionTable.all.map { declaration in
        switch declaration.long {
        case "max-hops": declaration.alias("max-redirects")
        case "totp-field": declaration.deprecated("authcode finds the field by itself")
        default: declaration
        }
    })

    static func options(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Options {
        let parser = ArgumentParser(environment: environment, reader: ValueReader(readStandardInput: { nil }), table: table)
        guard case .run(let options) = try parser.parse(CLI.arguments(arguments)) else { throw UsageError("not a run") }
        return options
    }

    @Test func anAliasFindsItsDeclaration() {
        #expect(Self.table.named("max-redirects")?.long == "max-hops")
        #expect(Self.table.named("max-hops")?.long == "max-hops")
        #expect(OptionTable.index.named("max-redirects") == nil, "the real table has no such name")
    }

    @Test(arguments: [["--max-redirects", "7"], ["--max-redirects=7"]])
    func anOldNameOnTheCommandLine(arguments: [String]) throws {
        let options = try Self.options(arguments)
        #expect(options.flow.walk.maxHops == 7)
        #expect(options.warnings == ["authcode: warning: '--max-redirects' is an old name; use '--max-hops'"])
    }

    @Test func theCurrentNameSaysNothing() throws {
        let options = try Self.options(["--max-hops", "7"])
        #expect(options.flow.walk.maxHops == 7 && options.warnings.isEmpty)
    }

    @Test func anOldNameInTheEnvironment() throws {
        let options = try Self.options([], environment: ["AUTHCODE_MAX_REDIRECTS": "5"])
        #expect(options.flow.walk.maxHops == 5)
        #expect(options.warnings == ["authcode: warning: 'AUTHCODE_MAX_REDIRECTS' is an old name; use 'AUTHCODE_MAX_HOPS'"])
        let both = try Self.options([], environment: ["AUTHCODE_MAX_REDIRECTS": "5", "AUTHCODE_MAX_HOPS": "6"])
        #expect(both.flow.walk.maxHops == 6 && both.warnings.isEmpty, "the option's own variable wins, silently")
    }

    @Test func anOldNameInAConfigFile() throws {
        let path = CLI.file(Array("max-redirects 4\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try Self.options(["-K", path])
        #expect(options.flow.walk.maxHops == 4)
        #expect(options.warnings == ["authcode: warning: 'max-redirects' is an old name; use 'max-hops' (\(path) line 1)"])
    }

    @Test func aDeprecatedOptionSaysWhyWhereverItIsGiven() throws {
        let seed = ["AUTHCODE_TOTP_SECRET": "GEZDGNBVGY3TQOJQ"]
        let options = try Self.options(["--totp-field", "otp"], environment: seed)
        #expect(options.flow.walk.totpField == "otp")
        #expect(options.warnings == ["authcode: warning: '--totp-field' is deprecated: authcode finds the field by itself"])
        let fromEnvironment = try Self.options([], environment: seed.merging(["AUTHCODE_TOTP_FIELD": "otp"]) { $1 })
        #expect(fromEnvironment.warnings == ["authcode: warning: 'AUTHCODE_TOTP_FIELD' is deprecated: authcode finds the field by itself"])
    }
}
