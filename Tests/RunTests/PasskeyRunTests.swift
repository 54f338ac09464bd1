import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import CLI

/// `--passkey FILE` through the whole command: every refusal exit 2 with its
/// exact line before any request, and the private key in no output even
/// when a server echoes it. Moved from CLITests/PasskeyExample.
struct PasskeyRunTests {
    static func run(_ extra: [String], transport: ScriptedTransport = ScriptedTransport { _ in HTTPResponse(status: 404) })
        -> (ExitCode, Ran, ScriptedTransport) {
        let ran = authcode(AuthCodeRunTests.CLI.arguments(extra), env: ["AUTHCODE_CLIENT_SECRET": "cl1ent-s3cret"], transport: transport)
        return (ran.exit, ran, transport)
    }

    static let exposed = PasskeyExample.write(PasskeyExample.good, mode: 0o640)
    static let noKey = PasskeyExample.write(#"{"rpId":"as.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7}"#)
    static let wrongKey = PasskeyExample.write(PasskeyExample.good.replacingOccurrences(of: "iCM8", with: "iCM4"))

    @Test(arguments: [
        (["--passkey-register"], "authcode: error: '--passkey-register' needs '--passkey <file>': the file the new passkey is saved to\nSee 'authcode --help'.\n"),
        (["--passkey", "/nonexistent/pk.json"], "authcode: error: the passkey file '/nonexistent/pk.json' does not exist\nA passkey file is made on a login that asks to register one: --passkey FILE --passkey-register.\n"),
        (["--passkey", "/nonexistent/pk.json", "--passkey-register"], "authcode: error: the passkey file '/nonexistent/pk.json' is in a directory authcode cannot write, and it is rewritten after each use\nKeep the file in a directory of your own (a CI secret copied to a temporary directory, say).\n"),
        (["--passkey", exposed], "authcode: error: the passkey file '\(exposed)' can be read or written by group or others (mode 640): it holds a private key\nRun chmod 600 '\(exposed)'; if others could read it, enrol a new passkey and remove this one from the account.\n"),
        (["--passkey", noKey], "authcode: error: the passkey file '\(noKey)' has no privateKey\nREADME \"Passkeys\" shows what a passkey file holds.\n"),
        (["--passkey", wrongKey], "authcode: error: the passkey file '\(wrongKey)' has a privateKey that cannot be used: the key is not usable: libcrypto refused the key (d does not match the public part?)\nREADME \"Passkeys\" shows what a passkey file holds.\n"),
        (["--passkey", PasskeyExample.unmade, "--passkey-register", "--users", "-"], "authcode: error: '--passkey-register' cannot be used with '--users': one passkey file holds one user's credential\nSee 'authcode --help'.\n"),
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
        let path = PasskeyExample.write(PasskeyExample.good)
        let raw = try #require(StrictBase64URL.decode(Substring(PasskeyExample.d)))
        let echoed = [PasskeyExample.d, Base64URL.encodeStandard(raw), raw.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()]
        let transport = ScriptedTransport { _ in
            HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html"), HTTPHeader("X-Echo", echoed[0])],
                         body: Array("<html><body><p>bad passkey \(echoed.joined(separator: " "))</p></body></html>".utf8))
        }
        let (code, console, _) = Self.run(["--passkey", path, "-v"], transport: transport)
        #expect(code == .noAuthorizationResponse)
        #expect(console.err.contains("[redacted]"))
        for form in echoed + [String(PasskeyExample.d.prefix(12)), "r/kHyZ+a06rm"] {
            #expect(!console.err.contains(form), "\(form)")
            #expect(!console.out.contains(form))
        }
    }
}
