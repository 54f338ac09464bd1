import Foundation
import Testing

/// Input and output edges of README.md "Options": values must be UTF-8 (on the
/// command line and in the environment), and a closed stdout is exit 1 with a
/// line that says whether the code was redeemed (PrintFormatTests has the
/// `| true` case).
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

    @Test func closedStdoutAfterRedemptionIsExit1() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"), closedStdout: true)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr == "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was redeemed and its token is lost\n", "\(result)")
        #expect(try fx.hits(to: "token").count == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func closedStdoutWithPrintCodeSaysNotRedeemed() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["--print", "code"], closedStdout: true)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr == "authcode: error: could not write the result to stdout (closed pipe or full disk); the code was not redeemed\n", "\(result)")
        #expect(try fx.hits(to: "token").isEmpty)
    }

    /// `exec >&-`: no stdout at all (EBADF), the same exit 1.
    @Test func missingStdoutIsExit1() async throws {
        let fx = try await Fixture.make()
        let result = try await viaShell(#"exec "$0" "$@" >&-"#, fx.publicClient("direct"))
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.errorLine?.contains("the code was redeemed") == true, "\(result)")
    }
}
