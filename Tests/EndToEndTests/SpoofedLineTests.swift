import Foundation
import Testing

/// Lines a server can fake without a control character (ARCHITECTURE "Security rules";
/// Core/Text/TerminalText.swift): U+2028/U+2029, every Bidi_Control
/// character and the invisible ones reach the terminal escaped visibly,
/// and a printed field holding one is refused. The fixture's `error-spoof`
/// and `token-spoof` (Fixtures/server/authorize.py SPOOF_TEXT).
@Suite("Lines a server can fake")
struct SpoofedLineTests {
    static let escaped = "Denied\\u2028authcode: note: the login worked\\u2029"
        + "\\u061c\\u200e\\u200f\\u2066x\\u2069\\u200b\\u200c\\u200d\\u2060\\u2061\\u2062\\u2063\\u2064\\ufeffend"

    @Test func anErrorDescriptionCannotFakeANote() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("error-spoof"))
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.stderr == "authcode: error: the authorization server answered error=access_denied: \(Self.escaped) (\(Fixture.redirect))\n",
                "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
    }

    @Test(arguments: ["access_token", "refresh_token"])
    func aPrintedFieldHoldingOneIsRefused(field: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-spoof") + ["--print", field])
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty, "nothing raw on stdout")
        #expect(result.stderr == "authcode: error: the token response's \(field) holds control characters; not printed\n", "\(result)")
    }
}
