import Foundation
import Testing

/// Input and output edges of README.md "Options": values must be UTF-8 (on the
/// command line and in the environment), and a closed stdout is exit 1 with a
/// line that says whether the code was redeemed.
@Suite("Input edges: non-UTF-8 values, closed stdout")
struct InputEdgeTests {
    /// `printf '\377'` makes a byte no Swift String can carry into argv.
    @Test func nonUTF8ArgumentIsUsageErrorBeforeAnyRequest() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"),
                                   shell: #"exec "$0" "$@" --form "password=$(printf 'wonder\377land')""#)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: argument 10 is not UTF-8 text; authcode takes UTF-8 values only", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing is sent")
    }

    @Test func nonUTF8EnvironmentValueIsUsageError() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"),
                                   shell: #"AUTHCODE_FORM="$(printf 'password=caf\351')" exec "$0" "$@""#)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: AUTHCODE_FORM is not UTF-8 text; authcode takes UTF-8 values only", "\(result)")
        #expect(try fx.hits().isEmpty, "nothing is sent")
    }

    /// Other variables pass through repaired: they are not authcode's values.
    @Test func nonUTF8ForeignVariableIsIgnored() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"), shell: #"LC_STRANGE="$(printf '\377')" exec "$0" "$@""#)
        expectTokenJSON(result)
    }

    @Test func closedStdoutAfterRedemptionIsExit1() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"), closedStdout: true)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.errorLine == "authcode: error: cannot write the result to stdout (closed pipe or full disk): the code was redeemed, and the tokens it bought are lost (stdout)", "\(result)")
        #expect(try fx.hits(to: "token").count == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func closedStdoutWithPrintCodeSaysNotRedeemed() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["--print", "code"], closedStdout: true)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.errorLine?.contains("the authorization code was not redeemed") == true, "\(result)")
        #expect(try fx.hits(to: "token").isEmpty)
    }

    /// `exec >&-`: no stdout at all (EBADF), the same exit 1.
    @Test func missingStdoutIsExit1() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct"), shell: #"exec "$0" "$@" >&-"#)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.errorLine?.contains("the code was redeemed") == true, "\(result)")
    }
}
