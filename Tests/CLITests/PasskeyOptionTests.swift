import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import Walk
@testable import Flow
@testable import CLI

/// `--passkey FILE` and `--passkey-register` (CLI/OptionRules+Passkey.swift):
/// FILE read and checked before any request (the refusals and the key kept
/// out of every output, through the whole command: RunTests/PasskeyRunTests).
struct PasskeyOptionTests {
    static let good = PasskeyExample.good
    static let unmade = PasskeyExample.unmade
    static func write(_ text: String, mode: Int = 0o600) -> String { PasskeyExample.write(text, mode: mode) }

    @Test func aGoodFileIsReadBeforeAnyRequest() throws {
        let path = Self.write(Self.good)
        let options = try CLI.options(CLI.arguments(["--passkey", path]))
        let credential = try #require(options.flow.walk.passkey)
        #expect(options.flow.walk.passkeyFile == path && !options.flow.walk.passkeyRegister)
        #expect(credential.rpID == "as.example" && credential.signCount == 7 && credential.userHandle == Array("user-1".utf8))
        // From the environment too, like every option.
        let fromEnvironment = try CLI.options(CLI.arguments([]), environment: ["AUTHCODE_PASSKEY": path, "AUTHCODE_PASSKEY_REGISTER": "1"])
        #expect(fromEnvironment.flow.walk.passkey == credential && fromEnvironment.flow.walk.passkeyRegister)
    }

    /// With `--passkey-register` FILE may be missing (it is made where a
    /// login asks to register one); an existing FILE is read as always.
    @Test func registerTakesAMissingOrAnExistingFile() throws {
        let missing = try CLI.options(CLI.arguments(["--passkey", Self.unmade, "--passkey-register"]))
        #expect(missing.flow.walk.passkey == nil && missing.flow.walk.passkeyRegister)
        #expect(!FileManager.default.fileExists(atPath: Self.unmade))
        let existing = try CLI.options(CLI.arguments(["--passkey", Self.write(Self.good), "--passkey-register"]))
        #expect(existing.flow.walk.passkey?.signCount == 7)
    }
}
