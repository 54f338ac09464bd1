import Foundation
import Testing

/// A value from a real pipe (README.md "Usage"): never a hang. Files, FIFOs
/// and the environment run in-process (RunTests/InputRunTests).
@Suite("Input values")
struct InputValueTests {
    /// Standard input open but silent, as in a CI step that never closes it.
    @Test func silentStandardInputGivesUpAfterTheTimeout() async throws {
        let binary = try Paths.binary.get()
        let command = "sleep 2 | '\(binary)' --authorize-url http://127.0.0.1:9/a --token-url http://127.0.0.1:9/t "
            + "--client-id a --redirect-uri \(Fixture.redirect) --timeout 0.5 --client-secret @-; echo \"exit ${PIPESTATUS[1]}\""
        let result = try await run(["-c", command], timeout: 30, executable: "/bin/bash")
        #expect(result.stdout.hasSuffix("exit 2\n"), "\(result)")
        #expect(result.stderr.contains("cannot read standard input for '--client-secret': standard input yielded nothing to read within 0.5 s (--timeout)"), "\(result)")
    }
}
