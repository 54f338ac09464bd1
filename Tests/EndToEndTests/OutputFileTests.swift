import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `-o FILE` (README.md "Writing the result to a file") where the process
/// matters: mode 0600 whatever the umask, and a write that fails later for
/// want of file space is exit 1. Replacing, refusing and batch files run
/// in-process (RunTests/OutputFileRunTests).
@Suite("-o FILE")
struct OutputFileTests {
    /// authcode under `sh -c PREFIX` (`umask 0`…).
    static func runUnder(_ prefix: String, _ arguments: [String]) async throws -> RunResult {
        guard case .success(let binary) = Paths.binary else { throw HarnessError("authcode binary not found") }
        return try await runProgram("sh", ["-c", prefix + "; exec \"$0\" \"$@\"", binary] + arguments)
    }

    /// authcode with a file size limit of 0 bytes, every signal unblocked
    /// and SIGXFSZ at its default (death), as in a user's shell: the test
    /// process's threads block signals and a child inherits that mask, and
    /// Python ignores SIGXFSZ, so both are reset before the exec.
    static func runWithoutFileSpace(_ arguments: [String]) async throws -> RunResult {
        guard case .success(let binary) = Paths.binary else { throw HarnessError("authcode binary not found") }
        let script = """
            import os, resource, signal, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        return try await runProgram("python3", ["-c", script, binary] + arguments)
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// umask 0 would widen a careless create; umask 277 would narrow
    /// mkstemp's 0600 to 0400: the file is 0600 either way.
    @Test(arguments: ["0", "277"])
    func theTokenGoesToAFileOnlyItsOwnerCanRead(umask: String) async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("output")
        let path = dir.path + "/token.json"
        let result = try await Self.runUnder("umask \(umask)", fx.publicClient("direct") + ["-o", path])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.isEmpty, "nothing on stdout with -o")
        #expect(Self.mode(path) == 0o600, "umask \(umask)")
        let text = try #require(Self.contents(path))
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1)
        #expect((jsonObject(text)?["access_token"] as? String)?.isEmpty == false, "\(text)")
        #expect(dir.names == ["token.json"], "no temporary file left")
    }

    /// No file space (RLIMIT_FSIZE 0): the temporary file is created, writing
    /// the token into it fails with EFBIG — authcode ignores SIGXFSZ, so it is
    /// an error it reports, not a silent kill.
    @Test func aWriteThatFailsLaterIsExit1() async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("output")
        let path = try dir.file("token", "old\n", mode: 0o600)
        let result = try await Self.runWithoutFileSpace(fx.publicClient("direct") + ["-o", path])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: could not write the result to '\(path)' (File too large); the code was redeemed and its token is lost\n",
                "\(result)")
        #expect(Self.contents(path) == "old\n")
        #expect(dir.names == ["token"])
        #expect(try fx.hits(to: "token").count == 1, "the code was redeemed, as the message says")
    }

    /// A batch's JSON lines into a file that cannot take them (the lines
    /// themselves: RunTests/OutputFileRunTests).
    @Test func aBatchWhoseFileCannotBeWrittenIsExit1() async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("output")
        let users = try dir.file("users.csv", "username,password\nuser1,pw-1\nuser2,pw-2\nuser3,pw-3\n")
        let limited = dir.path + "/limited.jsonl"
        let failed = try await Self.runWithoutFileSpace(fx.publicClient("users") + ["--users", users, "-o", limited])
        #expect(failed.exitCode == 1, "\(failed)")
        #expect(failed.errorLine == "authcode: error: could not write the results to '\(limited)'; 3 records were minted", "\(failed)")
        #expect(dir.names == ["users.csv"], "nothing half-written")
    }

    /// A link, to a file or dangling, is refused before any request and left
    /// as it was: the rename would replace the link itself with the token's
    /// file (issue 26; in a container running as root, `-o /dev/stdout` once
    /// replaced /dev/stdout). The file it points at is not touched either.
    @Test func aSymbolicLinkIsRefusedAndKept() async throws {
        let fx = try await Fixture.make()
        let dir = try TempDir("output")
        let target = try dir.file("target", "old\n", mode: 0o600)
        let refusal = "it is a symbolic link (-o replaces the file it names, so it would replace the link, not write through it)"
        for (name, destination) in [("link", target), ("dangling", dir.path + "/nowhere"), ("stdout", "/dev/stdout")] {
            let link = dir.path + "/" + name
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: destination)
            let result = try await run(fx.publicClient("direct") + ["-o", link])
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.errorLine == "authcode: error: cannot write '\(link)' for '-o': \(refusal)", "\(result)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == destination, "the link is still there")
        }
        let stdout = try await run(fx.publicClient("direct") + ["-o", "/dev/stdout"])
        #expect(stdout.exitCode == 2 && stdout.errorLine == "authcode: error: cannot write '/dev/stdout' for '-o': \(refusal)", "\(stdout)")
        #expect(Self.contents(target) == "old\n")
        #expect(Set(dir.names) == ["target", "link", "dangling", "stdout"], "no temporary file is left")
        #expect(try fx.hits().isEmpty, "no request was made")
    }
}
