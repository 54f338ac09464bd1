import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--users FILE` (README.md "Many users at once"): one flow per record,
/// output in input order, bad records failing alone, shards, stdin.
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

    @Test func everyUserGetsTheirOwnTokenInInputOrder() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...24))
        let result = try await run(fx.publicClient("users") + ["--scope", "openid", "--users", file.path, "--parallel", "8"], timeout: 120)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "no progress line on a pipe\n\(result)")
        let lines = Self.lines(result)
        #expect(lines.count == 24)
        for (index, line) in lines.enumerated() {
            #expect(line["line"] as? Int == index + 1)
            #expect(line["user"] as? String == "user\(index + 1)")
            let token = try #require(line["token"] as? [String: Any])
            // The fixture answers 409 when cookies cross users; the sub proves whose token it is.
            #expect(Self.subject(token) == "user\(index + 1)")
        }
        #expect(try fx.hits().allSatisfy { $0.status != 409 })
    }

    @Test func failuresFailAloneWithExit9AndNoPassword() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...6, wrong: [2, 5]))
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "--parallel", "3"], timeout: 120)
        #expect(result.exitCode == 9, "\(result)")
        let lines = Self.lines(result)
        #expect(lines.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        for number in [2, 5] {
            let error = try #require(lines[number - 1]["error"] as? [String: Any])
            #expect(error["exit"] as? Int == 6)
            #expect((error["message"] as? String)?.hasPrefix("login rejected: Invalid username or password.") == true, "\(error)")
        }
        #expect(lines.filter { $0["token"] != nil }.count == 4)
        for secret in ["nope", "pw-1", "pw-3"] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        }
    }

    @Test func printFieldGivesOneValuePerLineAndErrorsOnStderr() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...3, wrong: [2]))
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "--print", "access_token"], timeout: 60)
        #expect(result.exitCode == 9)
        let values = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(values.count == 4 && values[1].isEmpty && values[3].isEmpty, "\(result)")
        #expect(values[0].hasPrefix("at-") && values[2].hasPrefix("at-"))
        #expect(result.stderr == "authcode: error: line 2: login rejected: Invalid username or password. (\(fx.issuer("users"))/login)\n"
                + "authcode: 1 of 3 records failed; see the error lines above\n", "\(result)")
    }

    @Test func jsonLinesFromStdinWithBlankLinesAndABOM() async throws {
        let fx = try await Fixture.make()
        let input = "\u{FEFF}{\"username\":\"user1\",\"password\":\"pw-1\"}\n\n{\"password\":\"pw-2\",\"username\":\"user2\"}\n"
        let result = try await run(fx.publicClient("users") + ["--users", "-"], stdin: input, timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Self.lines(result).map { $0["line"] as? Int } == [1, 2], "blank lines are not counted")
        #expect(Self.lines(result).map { $0["user"] as? String } == ["user1", "user2"])
    }

    @Test(arguments: [("1/3", [1, 4, 7]), ("2/3", [2, 5]), ("3/3", [3, 6]), ("1/1", [1, 2, 3, 4, 5, 6, 7])])
    func shardsSplitTheFile(shard: String, expected: [Int]) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...7))
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "--shard", shard], timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Self.lines(result).map { $0["line"] as? Int } == expected)
        #expect(Self.lines(result).map { $0["user"] as? String } == expected.map { "user\($0)" })
    }

    @Test(arguments: [
        ("username,password\nuser1,pw-1\nuser2\n", 2, "bad record: record has 1 field, the header has 2"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n[1,2]\n", 2, "bad record: record is not a JSON object"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n{\"username\":\"user2\",\"password\":7}\n", 2,
         "bad record: field \"password\" is a number, not a string"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n{\"username\":\n", 2, "bad record: record is not valid JSON"),
    ])
    func badRecordsFailAloneAndNeverReachTheServer(input: String, bad: Int, message: String) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(input)
        let result = try await run(fx.publicClient("users") + ["--users", file.path], timeout: 60)
        #expect(result.exitCode == 9, "\(result)")
        let lines = Self.lines(result)
        let error = try #require(lines[bad - 1]["error"] as? [String: Any])
        #expect(error["exit"] as? Int == 2)
        #expect(error["message"] as? String == message)
        #expect(lines[0]["token"] != nil)
        #expect(try fx.hits(to: "login").count == 1, "only the good record logged in")
    }

    @Test(arguments: ["", "username,password\n", "\n\n", "\u{FEFF}"])
    func emptyInputIsExit2BeforeAnyRequest(input: String) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(input)
        let result = try await run(fx.publicClient("users") + ["--users", file.path])
        expectFailure(result, exit: 2, ["no records"])
        #expect(try fx.hits().isEmpty)
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

    @Test func aRecordFieldWinsOverTheSameForm() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("username,password\nuser3,pw-3\n")
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "--form", "password=@-", "--form", "username=alice"],
                                   stdin: "wonderland", timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        let login = try #require(try fx.hits(to: "login").first)
        #expect(login.form["username"] == "user3")
        #expect(login.form["password"] == "pw-3")
    }

    @Test func userLabelIsNeverASecret() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("password,username\npw-4,user4\n")
        let result = try await run(fx.publicClient("users") + ["--users", file.path])
        #expect(Self.lines(result).first?["user"] as? String == "user4")
        let noIdentity = try TempFile("password,extra\npw-4,x\n")
        let second = try await run(fx.publicClient("users") + ["--users", noIdentity.path, "--form", "username=user4"])
        #expect(Self.lines(second).first?["user"] is NSNull, "\(second)")
    }

    @Test func verboseTracesArePrefixedWithTheRecordsLine() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(Self.csv(1...2))
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "-v"], timeout: 60)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("authcode: line 1: ") || $0.hasPrefix("authcode: line 2: ") }, "\(result)")
        #expect(!result.stderr.contains("pw-1") && !result.stderr.contains("pw-2"))
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
