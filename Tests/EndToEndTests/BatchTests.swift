import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--users` where a process matters (README.md "Many users at once"):
/// records from a pipe, a silent pipe or FIFO, the progress line on a real
/// terminal. Records, order, failures, shards and summaries run in-process
/// (RunTests/BatchRunTests).
@Suite("Batch minting")
struct BatchTests {
    static func csv(_ users: ClosedRange<Int>, wrong: Set<Int> = []) -> String {
        "username,password\n" + users.map { "user\($0),\(wrong.contains($0) ? "nope" : "pw-\($0)")" }.joined(separator: "\n") + "\n"
    }

    /// Each stdout line as a JSON object.
    static func lines(_ result: RunResult) -> [[String: Any]] {
        result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { jsonObject(String($0)) ?? [:] }
    }

    /// The `sub` of an id_token.
    static func subject(_ token: [String: Any]) -> String? {
        guard let jwt = token["id_token"] as? String else { return nil }
        var payload = String(jwt.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["sub"] as? String
    }

    @Test func jsonLinesFromStdinWithBlankLinesAndABOM() async throws {
        let fx = try await Fixture.make()
        let input = "\u{FEFF}{\"username\":\"user1\",\"password\":\"pw-1\"}\n\n{\"password\":\"pw-2\",\"username\":\"user2\"}\n"
        let result = try await run(fx.publicClient("users") + ["--users", "-"], stdin: input, timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Self.lines(result).map { $0["line"] as? Int } == [1, 2], "blank lines are not counted")
        #expect(Self.lines(result).map { $0["user"] as? String } == ["user1", "user2"])
    }

    /// A FIFO nobody writes, and a standard input that stays open and
    /// silent: exit 2 after --timeout, never a hang, and no request.
    @Test func silentInputGivesUpAfterTheTimeout() async throws {
        let fx = try await Fixture.make()
        let fifo = NSTemporaryDirectory() + "authcode-users-\(UUID().uuidString.prefix(8))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let viaFIFO = try await run(fx.publicClient("users") + ["--users", fifo, "--timeout", "0.5"], timeout: 10)
        expectFailure(viaFIFO, exit: 2, ["cannot read the input: nothing arrived within 0.5 s (--timeout); is a writer missing? (\(fifo))"])
        let binary = try Paths.binary.get()
        let command = "sleep 2 | " + ([binary] + fx.publicClient("users") + ["--users", "-", "--timeout", "0.5"]).map { "'\($0)'" }.joined(separator: " ")
            + "; echo \"exit ${PIPESTATUS[1]}\""
        let viaStdin = try await run(["-c", command], timeout: 30, executable: "/bin/bash")
        #expect(viaStdin.stdout == "exit 2\n", "\(viaStdin)")
        #expect(viaStdin.stderr == "authcode: error: cannot read the input: nothing arrived within 0.5 s (--timeout); is a writer missing? (standard input)\n")
        #expect(try fx.hits().isEmpty)
    }

    /// On a terminal (a pty from script(1)) one progress line is redrawn.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnATerminal() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...5))
        let binary = try Paths.binary.get()
        let command = ([binary] + fx.publicClient("users") + ["--users", file.path]).map { "'\($0)'" }.joined(separator: " ") + " > /dev/null"
        let result = try await run(["-qec", command, "/dev/null"], timeout: 60, executable: "/usr/bin/script")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("5/5 · "), "\(result)")
        #expect(result.stdout.contains("\r\u{1B}[K"), "\(result)")
    }
}
