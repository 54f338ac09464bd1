import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Values from files, pipes and the environment (README.md "Usage"):
/// never a hang, a flag always beats the environment, `@@` is a literal `@`.
@Suite("Input values")
struct InputValueTests {
    @Test func fifoWithoutAWriterGivesUpAfterTheTimeout() async throws {
        let fifo = NSTemporaryDirectory() + "authcode-fifo-\(UUID().uuidString.prefix(8))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let result = try await run(["--authorize-url", "http://127.0.0.1:9/a", "--token-url", "http://127.0.0.1:9/t",
                                    "--client-id", "a", "--redirect-uri", Fixture.redirect, "--timeout", "0.5",
                                    "--client-secret", "@" + fifo], timeout: 10)
        expectFailure(result, exit: 2, ["cannot read '\(fifo)' for '--client-secret': it yielded nothing to read within 0.5 s (--timeout); is a writer missing?"])
    }

    /// Standard input open but silent, as in a CI step that never closes it.
    @Test func silentStandardInputGivesUpAfterTheTimeout() async throws {
        let binary = try Paths.binary.get()
        let command = "sleep 2 | '\(binary)' --authorize-url http://127.0.0.1:9/a --token-url http://127.0.0.1:9/t "
            + "--client-id a --redirect-uri \(Fixture.redirect) --timeout 0.5 --client-secret @-; echo \"exit ${PIPESTATUS[1]}\""
        let result = try await run(["-c", command], timeout: 30, executable: "/bin/bash")
        #expect(result.stdout.hasSuffix("exit 2\n"), "\(result)")
        #expect(result.stderr.contains("cannot read standard input for '--client-secret': standard input yielded nothing to read within 0.5 s (--timeout)"), "\(result)")
    }

    @Test func doubleAtIsALiteralAt() async throws {
        let fx = try await Fixture.make()
        let viaFlag = try await run(fx.publicClient("direct") + ["--param", "audience=@@api", "--print", "code"])
        #expect(viaFlag.exitCode == 0, "\(viaFlag)")
        #expect(try fx.hits(to: "authorize").last?.form["audience"] == "@api")
        let viaEnv = try await run(fx.publicClient("direct") + ["--print", "code"], env: ["AUTHCODE_SCOPE": "@@admin"])
        #expect(viaEnv.exitCode == 0, "\(viaEnv)")
        #expect(try fx.hits(to: "authorize").last?.form["scope"] == "@admin")
    }

    @Test(arguments: [
        (["-q"], ["AUTHCODE_VERBOSE": "1"]),
        (["-v"], ["AUTHCODE_QUIET": "1"]),
    ])
    func aFlagBeatsAConflictingEnvironmentVariable(flags: [String], env: [String: String]) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + flags, env: env)
        expectTokenJSON(result)
        if flags == ["-q"] {
            #expect(result.stderr.isEmpty, "\(result)")
        } else {
            #expect(result.stderr.contains("* authorization request"), "\(result)")
        }
    }
}
