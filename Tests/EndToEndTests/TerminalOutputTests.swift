import Foundation
import Testing

/// The terminal gets no control characters from a server (README.md
/// "Security rules"; Core/ServerText/TerminalText.swift, Core/ServerText/ServerText.swift): error
/// lines and -v show them escaped, a printed field holding one is exit 8.
@Suite("Terminal: server control characters are escaped or refused")
struct TerminalOutputTests {
    static let escaped = #"Denied\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\x7f"#

    static func expectNoControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        #expect(controls.isEmpty, "raw control characters: \(controls.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    @Test(arguments: [false, true])
    func errorDescriptionIsEscaped(verbose: Bool) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("error-control") + (verbose ? ["-v"] : []))
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: the authorization server answered error=access_denied: \(Self.escaped) (\(Fixture.redirect))", "\(result)")
        Self.expectNoControls(result.stderr)
    }

    @Test(arguments: ["access_token", "refresh_token", "header"])
    func printedFieldWithControlsIsExit8(field: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-control") + ["--print", field])
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty, "never written raw")
        let name = field == "header" ? "token_type" : field
        #expect(result.stderr == "authcode: error: the token response's \(name) holds control characters; not printed\n", "\(result)")
    }

    /// The JSON body is printed as received: JSON escapes keep it free of raw controls.
    @Test func jsonOutputIsTheBodyAsReceived() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-control"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(#""access_token":"at-Denied\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eevil\u007f""#), "\(result)")
        Self.expectNoControls(result.stdout)
    }
}
