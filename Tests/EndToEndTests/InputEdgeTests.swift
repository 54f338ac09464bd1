import Foundation
import Testing

/// Input and output edges of README.md "Options" that only a process has:
/// argv and environ bytes must be UTF-8, and a stdout that is closed or
/// whose reader is gone is exit 1 with a line that says whether the code was
/// redeemed (the same decision over a closed console runs in-process:
/// RunTests/PrintFormatRunTests).
@Suite("Input edges: non-UTF-8 values, closed stdout")
struct InputEdgeTests {
    /// Through `/bin/sh -c SCRIPT authcode ARGS…`, so `"$0" "$@"` is authcode
    /// as asked: `printf '\377'` makes bytes no Swift String can carry.
    func viaShell(_ script: String, _ arguments: [String]) async throws -> RunResult {
        try await run(["-c", script, try Paths.binary.get()] + arguments, executable: "/bin/sh")
    }

    @Test func nonUTF8ArgumentIsUsageErrorBeforeAnyRequest() async throws {
        let fx = try await Fixture.make()
        let result = try await viaShell(#"exec "$0" "$@" --form "password=$(printf 'wonder\377land')""#, fx.publicClient("direct"))
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: argument 10 is not UTF-8 text; authcode takes UTF-8 values only", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing is sent")
    }

    @Test func nonUTF8EnvironmentValueIsUsageError() async throws {
        let fx = try await Fixture.make()
        let result = try await viaShell(#"AUTHCODE_FORM="$(printf 'password=caf\351')" exec "$0" "$@""#, fx.publicClient("direct"))
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: AUTHCODE_FORM is not UTF-8 text; authcode takes UTF-8 values only", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing is sent")
    }

    /// Other variables pass through repaired: they are not authcode's values.
    @Test func nonUTF8ForeignVariableIsIgnored() async throws {
        let fx = try await Fixture.make()
        let result = try await viaShell(#"LC_STRANGE="$(printf '\377')" exec "$0" "$@""#, fx.publicClient("direct"))
        expectTokenJSON(result)
    }

    /// `exec >&-`: no stdout at all (EBADF), the same exit 1.
    @Test func missingStdoutIsExit1() async throws {
        let fx = try await Fixture.make()
        let result = try await viaShell(#"exec "$0" "$@" >&-"#, fx.publicClient("direct"))
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.errorLine?.contains("the code was redeemed") == true, "\(result)")
    }

    /// `authcode … | true`: the reader is gone before the token is written.
    @Test func closedStdoutIsExit1AndSaysTheCodeWasRedeemed() async throws {
        let fx = try await Fixture.make()
        let binary = try Paths.binary.get()
        let arguments = fx.publicClient("token-slow").map { "'\($0)'" }.joined(separator: " ")
        let result = try await run(["-c", "'\(binary)' \(arguments) | true; echo \"exit ${PIPESTATUS[0]}\""], timeout: 30, executable: "/bin/bash")
        #expect(result.stdout == "exit 1\n", "\(result)")
        #expect(result.stderr == "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was redeemed and its token is lost\n")
        #expect(try fx.hits(to: "token").count == 1)
    }
}
