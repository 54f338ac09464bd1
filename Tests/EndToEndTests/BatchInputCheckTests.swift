import Foundation
import Testing

/// Issue 22 item 6: batch input that cannot be right says so before any
/// request (a CSV with no header row, or separated by `;` or tabs); a login
/// form no record fills names the record's columns beside the form's
/// fields; exit 9 ends with one summary line unless `-q`.
@Suite("Batch input that cannot be right")
struct BatchInputCheckTests {
    static let headerHint = "Add a header row naming the login form's fields as the file's first line, e.g. \"username,password\"."
    static let separatorHint = "Separate the columns with commas, e.g. a first line \"username,password\"; quote a value that holds a comma."
    static let noHeader = "the CSV's first line looks like a user's values, not a header row: "

    @Test(arguments: [
        ("alice@example.com,S3cret\nbob@example.com,hunter2\n", noHeader + "column 1 holds an e-mail address", headerHint),
        ("alice@example.com,S3cret\n", noHeader + "column 1 holds an e-mail address", headerHint),
        ("alice,S3cr3t!\nbob,hunter2\n", noHeader + "column 2 holds characters no form field name has", headerHint),
        ("user1,pw-1\nuser2,pw-2\n", noHeader + "column 1 is named like the value below it", headerHint),
        ("alice,wonderland\nalice,hunter2\n", noHeader + "column 1 is named like the value below it", headerHint),
        ("username;password\nuser1;pw-1\n", "column 1 of the CSV header holds ';': columns must be separated by commas", separatorHint),
        ("username;password\nuser1;pw,1\n", "column 1 of the CSV header holds ';': columns must be separated by commas", separatorHint),
        ("username\tpassword\nuser1\tpw-1\n", "column 1 of the CSV header holds a tab: columns must be separated by commas", separatorHint),
    ])
    func aHeaderThatCannotBeRightIsExit2BeforeAnyRequest(input: String, message: String, hint: String) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(input)
        let result = try await run(fx.publicClient("users") + ["--users", file.path])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "authcode: error: \(message) (\(file.path))\n\(hint)\n", "\(result)")
        #expect(try fx.hits().isEmpty, "no request, not even discovery")
        // The "names" of a file with no header are a user's values: never quoted.
        for secret in ["S3cret", "S3cr3t!", "hunter2", "wonderland", "pw-1", "pw,1"] {
            #expect(!result.stderr.contains(secret), "\(result)")
        }
        #expect(HintDirectionTests.options(in: hint).isEmpty, "no option would help: the file is wrong")
        let quiet = try await run(fx.publicClient("users") + ["--users", file.path, "-q"])
        #expect(quiet.exitCode == 2 && quiet.stderr == "authcode: error: \(message) (\(file.path))\n", "\(quiet)")
    }

    /// Field names as real sites spell them pass the check.
    @Test func fieldNamesWithPunctuationStillRun() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("username,password,user[login],ctl00$Main.form:x_y-z\nuser1,pw-1,a,b\n")
        let result = try await run(fx.publicClient("users") + ["--users", file.path], timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: [
        ("user,pass\nuser1,pw-1\n", "columns (user, pass)"),
        ("{\"user\":\"user1\",\"pass\":\"pw-1\"}\n", "fields (user, pass)"),
        ("username,pass\nuser1,pw-1\n", "columns (username, pass)"),
    ])
    func aLoginFormNoRecordFillsNamesTheRecordsColumns(input: String, given: String) async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(input)
        let result = try await run(fx.publicClient("users") + ["--users", file.path, "--print", "access_token"], timeout: 60)
        #expect(result.exitCode == 9, "\(result)")
        let asked = given.hasPrefix("columns (username") ? "password" : "username, password"
        // The POST's walk failing before any credentials went out is tried again as a GET (Flow/MethodFallback.swift).
        #expect(result.stderr == "authcode: note: line 1: the POST authorization request led nowhere; sending it again as GET without the --form values"
                + " (--method GET goes there directly)\n"
                + "authcode: error: line 1: the login page asks for \(asked), which the record's \(given) do not fill"
                + " (\(fx.issuer("users"))/authorize)\nauthcode: 1 of 1 record failed; see the error lines above\n", "\(result)")
        #expect(!result.stderr.contains("pw-1"))
        #expect(try fx.hits(to: "login").isEmpty, "the form was never sent half-filled")
    }

    @Test func exit9EndsWithOneSummaryLineUnlessQuiet() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile(BatchTests.csv(1...4, wrong: [2, 3]))
        let json = try await run(fx.publicClient("users") + ["--users", file.path, "--parallel", "2"], timeout: 60)
        #expect(json.exitCode == 9, "\(json)")
        #expect(json.stderr == "authcode: 2 of 4 records failed; see the JSON lines\n", "\(json)")

        let dir = try TempDir("summary")
        let out = dir.path + "/tokens.jsonl"
        let toFile = try await run(fx.publicClient("users") + ["--users", file.path, "-o", out], timeout: 60)
        #expect(toFile.exitCode == 9, "\(toFile)")
        #expect(toFile.stderr == "authcode: 2 of 4 records failed; see the JSON lines in '\(out)'\n", "\(toFile)")

        let quiet = try await run(fx.publicClient("users") + ["--users", file.path, "-q"], timeout: 60)
        #expect(quiet.exitCode == 9 && quiet.stderr.isEmpty, "\(quiet)")

        let good = try TempFile(BatchTests.csv(1...2))
        let success = try await run(fx.publicClient("users") + ["--users", good.path], timeout: 60)
        #expect(success.exitCode == 0 && success.stderr.isEmpty, "\(success)")
    }

    /// Issue 22 item 2: every record of a server that refuses the POST falls
    /// back alike, so the note comes once per batch (from whichever record
    /// falls back first); with -v every record says it.
    @Test func theFallbackNoteComesOncePerBatch() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("username,password\n" + String(repeating: "alice,wonderland\n", count: 4))
        let note = "the server refused the POST authorization request (403); sending it again as GET without the --form values"
            + " (--method GET goes there directly)"
        let isNote = { (line: Substring) in line.hasPrefix("authcode: note: line ") && line.hasSuffix(note) }
        let result = try await run(fx.publicClient("post-403") + ["--users", file.path, "--parallel", "2"], timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(BatchTests.lines(result).filter { $0["token"] != nil }.count == 4, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.allSatisfy(isNote), "\(result)")
        #expect(try fx.hits(to: "authorize").map(\.method).filter { $0 == "POST" }.count == 4, "every record tried the POST")

        let verbose = try await run(fx.publicClient("post-403") + ["--users", file.path, "-v"], timeout: 60)
        #expect(verbose.exitCode == 0, "\(verbose)")
        #expect(verbose.stderr.split(separator: "\n").filter(isNote).count == 4, "\(verbose)")
    }
}
