import Foundation
import Testing

/// A token endpoint answer that holds a working token but is not the JSON
/// authcode expects is never quoted, parsed or not (HTTP/Quoting/EndpointKind.swift,
/// OAuth/TokenResponse.swift): the error line gives status, size and type.
/// The fixture redeems the code for real and spoils only the body
/// (Fixtures/server/unparsed.py).
@Suite("Token endpoint bodies that do not parse are never quoted")
struct UnparsedTokenBodyTests {
    /// Fixture tokens: `at-` / `rt-` and 22 base64url characters.
    static let tokenPattern = try! NSRegularExpression(pattern: "[ar]t-[A-Za-z0-9_-]{22}")

    static func expectNoToken(in text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = tokenPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(found == nil, "a token reached the output:\n\(text)", sourceLocation: sourceLocation)
    }

    static let withheld = "(not shown: it may hold tokens)"

    @Test(arguments: [
        ("token-junk-before", 8, "the token endpoint's answer is not a JSON object: 200 with 296 bytes of application/json \(withheld)"),
        ("token-junk-after", 8, "the token endpoint's answer is not a JSON object: 200 with 179 bytes of application/json \(withheld)"),
        ("token-bad-utf8", 8, "the token endpoint's answer is not a JSON object: 200 with 144 bytes of application/json \(withheld)"),
        ("token-truncated", 8, "the token endpoint's answer is not a JSON object: 200 with 127 bytes of application/json \(withheld)"),
        ("token-text-plain", 8, "the token endpoint's answer is not a JSON object: 200 with 63 bytes of text/plain \(withheld)"),
        ("token-500-echo", 7, "the token endpoint answered 500 with 318 bytes of text/html \(withheld)"),
        ("token-error-echo", 7, "the token endpoint refused: 500 error=server_error (error_description not shown: it quotes a token)"),
    ] as [(String, Int32, String)])
    func bodyIsNeverQuoted(scenario: String, exit: Int32, message: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["-v"])
        #expect(result.exitCode == exit, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.errorLine == "authcode: error: \(message) (\(fx.issuer(scenario))/token)", "\(result)")
        #expect(result.stderr.hasSuffix(result.errorLine! + "\n"), "nothing after the error line\n\(result)")
        Self.expectNoToken(in: result.stderr + result.stdout)
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "token"], "the code was spent")
        expectNoSecrets(in: result, fixture: fx)
    }

    /// `-q`: the error line alone, and still no token.
    @Test func quietRunShowsTheLineOnly() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-500-echo") + ["-q"])
        #expect(result.exitCode == 7)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the token endpoint answered 500 with 318 bytes of text/html \(Self.withheld) (\(fx.issuer("token-500-echo"))/token)\n",
                "\(result)")
    }

    /// With `--users` the same text goes into the record's JSON line on
    /// stdout: no token there either.
    @Test(arguments: [
        ("token-junk-after", 8, "the token endpoint's answer is not a JSON object: 200 with 179 bytes of application/json \(withheld)"),
        ("token-500-echo", 7, "the token endpoint answered 500 with 318 bytes of text/html \(withheld)"),
        ("token-text-plain", 8, "the token endpoint's answer is not a JSON object: 200 with 63 bytes of text/plain \(withheld)"),
    ] as [(String, Int32, String)])
    func batchLineHoldsNoToken(scenario: String, exit: Int32, message: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--users", "-"], stdin: "username,password\nalice,wonderland\n")
        #expect(result.exitCode == 9, "\(result)")
        #expect(result.stdout == #"{"line":1,"user":"alice","error":{"exit":\#(exit),"message":"\#(message) (\#(fx.issuer(scenario))/token)"}}"# + "\n",
                "\(result)")
        #expect(result.stderr == "authcode: 1 of 1 record failed; see the JSON lines\n", "\(result)")
        Self.expectNoToken(in: result.stderr + result.stdout)
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "token"])
    }
}
