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
/// FILE read and checked before any request, every refusal exit 2 with its
/// exact line, and the private key in no output.
struct PasskeyOptionTests {
    /// RFC 9052 Appendix C.7's P-256 key: a published example, protecting nothing.
    static let d = "r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM8"
    static let jwk = #"{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"\#(d)"}"#
    static let good = #"{"rpId":"as.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7,"privateKey":\#(jwk)}"#
    /// A path in a writable directory where no file is: for `--passkey-register`.
    static let unmade = NSTemporaryDirectory() + "authcode-unit-passkey-\(UUID().uuidString).json"

    static func write(_ text: String, mode: Int = 0o600) -> String {
        let path = NSTemporaryDirectory() + "authcode-unit-passkey-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return path
    }

    static func run(_ extra: [String], transport: ScriptedTransport = ScriptedTransport { _ in HTTPResponse(status: 404) })
        -> (ExitCode, CapturingConsole, ScriptedTransport) {
        let console = CapturingConsole()
        let code = AuthCode.run(arguments: CLI.arguments(extra), environment: ["AUTHCODE_CLIENT_SECRET": "cl1ent-s3cret"], console: console,
                                reader: ValueReader(readStandardInput: { nil }), transport: transport.factory)
        return (code, console, transport)
    }

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

    static let exposed = write(good, mode: 0o640)
    static let noKey = write(#"{"rpId":"as.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7}"#)
    static let wrongKey = write(good.replacingOccurrences(of: "iCM8", with: "iCM4"))

    @Test(arguments: [
        (["--passkey-register"], "authcode: error: '--passkey-register' needs '--passkey <file>': the file the new passkey is saved to\nSee 'authcode --help'.\n"),
        (["--passkey", "/nonexistent/pk.json"], "authcode: error: the passkey file '/nonexistent/pk.json' does not exist\nA passkey file is made on a login that asks to register one: --passkey FILE --passkey-register.\n"),
        (["--passkey", "/nonexistent/pk.json", "--passkey-register"], "authcode: error: the passkey file '/nonexistent/pk.json' is in a directory authcode cannot write, and it is rewritten after each use\nKeep the file in a directory of your own (a CI secret copied to a temporary directory, say).\n"),
        (["--passkey", exposed], "authcode: error: the passkey file '\(exposed)' can be read or written by group or others (mode 640): it holds a private key\nRun chmod 600 '\(exposed)'; if others could read it, enrol a new passkey and remove this one from the account.\n"),
        (["--passkey", noKey], "authcode: error: the passkey file '\(noKey)' has no privateKey\nREADME \"Passkeys\" shows what a passkey file holds.\n"),
        (["--passkey", wrongKey], "authcode: error: the passkey file '\(wrongKey)' has a privateKey that cannot be used: the key is not usable: libcrypto refused the key (d does not match the public part?)\nREADME \"Passkeys\" shows what a passkey file holds.\n"),
        (["--passkey", unmade, "--passkey-register", "--users", "-"], "authcode: error: '--passkey-register' cannot be used with '--users': one passkey file holds one user's credential\nSee 'authcode --help'.\n"),
    ])
    func refusedBeforeAnyRequest(_ extra: [String], _ stderr: String) {
        let (code, console, transport) = Self.run(extra)
        #expect(code == .usage)
        #expect(console.err == stderr)
        #expect(console.out == "")
        #expect(transport.requests.isEmpty)
    }

    /// A server that echoes the key (as a page might quote what it got):
    /// the -v trace and the error line mask it in every form.
    @Test func theKeyIsInNoOutput() throws {
        let path = Self.write(Self.good)
        let raw = try #require(StrictBase64URL.decode(Substring(Self.d)))
        let echoed = [Self.d, Base64URL.encodeStandard(raw), raw.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()]
        let transport = ScriptedTransport { _ in
            HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html"), HTTPHeader("X-Echo", echoed[0])],
                         body: Array("<html><body><p>bad passkey \(echoed.joined(separator: " "))</p></body></html>".utf8))
        }
        let (code, console, _) = Self.run(["--passkey", path, "-v"], transport: transport)
        #expect(code == .noAuthorizationResponse)
        #expect(console.err.contains("[redacted]"))
        for form in echoed + [String(Self.d.prefix(12)), "r/kHyZ+a06rm"] {
            #expect(!console.err.contains(form), "\(form)")
            #expect(!console.out.contains(form))
        }
    }
}
