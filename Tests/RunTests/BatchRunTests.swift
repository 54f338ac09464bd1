import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// `--users FILE` (README.md "Many users at once"): one flow per record on
/// the batch's threads, output in input order, bad records failing alone,
/// shards, one summary line. The scripted server keeps a session per user
/// and counts any request whose cookies crossed flows. Moved from
/// EndToEndTests/BatchTests and BatchInputCheckTests.
struct BatchRunTests {
    static func csv(_ users: ClosedRange<Int>, wrong: Set<Int> = []) -> String {
        "username,password\n" + users.map { "user\($0),\(wrong.contains($0) ? "nope" : "pw-\($0)")" }.joined(separator: "\n") + "\n"
    }

    /// Each stdout line as a JSON object.
    static func lines(_ ran: Ran) -> [[String: Any]] {
        ran.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { jsonObject(String($0)) ?? [:] }
    }

    static func users(_ server: ScriptedServer, _ file: borrowing TempFile, _ extra: [String] = [], stdin: String? = nil) -> Ran {
        authcode(server.publicClient() + ["--users", file.path] + extra, stdin: stdin, server: server)
    }

    @Test func everyUserGetsTheirOwnTokenInInputOrder() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...24))
        let ran = Self.users(server, file, ["--scope", "openid", "--parallel", "8"])
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.err.isEmpty, "no progress line off a terminal")
        let lines = Self.lines(ran)
        #expect(lines.count == 24)
        for (index, line) in lines.enumerated() {
            #expect(line["line"] as? Int == index + 1)
            #expect(line["user"] as? String == "user\(index + 1)")
            let token = try #require(line["token"] as? [String: Any])
            // The server answers 409 when cookies cross users; the sub proves whose token it is.
            #expect((token["id_token"] as? String).flatMap(claims)?["sub"] as? String == "user\(index + 1)")
        }
        #expect(server.crossings == 0)
        #expect(server.codesRedeemed == 24)
    }

    @Test func failuresFailAloneWithExit9AndNoPassword() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...6, wrong: [2, 5]))
        let ran = Self.users(server, file, ["--parallel", "3"])
        #expect(ran.exit == .batchFailed, "\(ran)")
        let lines = Self.lines(ran)
        #expect(lines.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        for number in [2, 5] {
            let error = try #require(lines[number - 1]["error"] as? [String: Any])
            #expect(error["exit"] as? Int == 6)
            #expect(error["message"] as? String == "login rejected: Invalid username or password. (\(server.url("/login")))", "\(error)")
        }
        #expect(lines.filter { $0["token"] != nil }.count == 4)
        #expect(ran.err == "authcode: 2 of 6 records failed; see the JSON lines\n")
        for secret in ["nope", "pw-1", "pw-3"] {
            #expect(!ran.out.contains(secret) && !ran.err.contains(secret))
        }
    }

    @Test func printFieldGivesOneValuePerLineAndErrorsOnStderr() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...3, wrong: [2]))
        let ran = Self.users(server, file, ["--print", "access_token"])
        #expect(ran.exit == .batchFailed)
        let values = ran.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(values.count == 3 && values[2].isEmpty, "nothing for the failed record\n\(ran)")
        #expect(values[0].hasPrefix("at-") && values[1].hasPrefix("at-"))
        #expect(ran.err == "authcode: error: line 3 (user user2): login rejected: Invalid username or password. (\(server.url("/login")))\n"
                + "authcode: 1 of 3 records failed; see the error lines above\n", "\(ran)")
    }

    /// JSON Lines with blank lines and a byte order mark (from a file here;
    /// the same from a pipe is end-to-end).
    @Test func jsonLinesWithBlankLinesAndABOM() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile("\u{FEFF}{\"username\":\"user1\",\"password\":\"pw-1\"}\n\n{\"password\":\"pw-2\",\"username\":\"user2\"}\n")
        let ran = Self.users(server, file)
        #expect(ran.exit == .success, "\(ran)")
        #expect(Self.lines(ran).map { $0["line"] as? Int } == [1, 2], "blank lines are not counted")
        #expect(Self.lines(ran).map { $0["user"] as? String } == ["user1", "user2"])
    }

    @Test(arguments: [("1/3", [1, 4, 7]), ("2/3", [2, 5]), ("3/3", [3, 6]), ("1/1", [1, 2, 3, 4, 5, 6, 7])])
    func shardsSplitTheFile(shard: String, expected: [Int]) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...7))
        let ran = Self.users(server, file, ["--shard", shard])
        #expect(ran.exit == .success, "\(ran)")
        #expect(Self.lines(ran).map { $0["line"] as? Int } == expected)
        #expect(Self.lines(ran).map { $0["user"] as? String } == expected.map { "user\($0)" })
        #expect(server.requests(to: "/token").count == expected.count, "the other shards' records are not run")
    }

    @Test(arguments: [
        ("username,password\nuser1,pw-1\nuser2\n", 2, "bad record: record has 1 field, the header has 2"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n[1,2]\n", 2, "bad record: record is not a JSON object"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n{\"username\":\"user2\",\"password\":7}\n", 2,
         "bad record: field \"password\" is a number, not a string"),
        ("{\"username\":\"user1\",\"password\":\"pw-1\"}\n{\"username\":\n", 2, "bad record: record is not valid JSON"),
    ])
    func badRecordsFailAloneAndNeverReachTheServer(input: String, bad: Int, message: String) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(input)
        let ran = Self.users(server, file)
        #expect(ran.exit == .batchFailed, "\(ran)")
        let lines = Self.lines(ran)
        let error = try #require(lines[bad - 1]["error"] as? [String: Any])
        #expect(error["exit"] as? Int == 2)
        #expect(error["message"] as? String == message)
        #expect(lines[0]["token"] != nil)
        #expect(server.requests(to: "/login").count == 1, "only the good record logged in")
    }

    @Test(arguments: ["", "username,password\n", "\n\n", "\u{FEFF}"])
    func emptyInputIsExit2BeforeAnyRequest(input: String) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(input)
        let ran = Self.users(server, file)
        expectFailure(ran, .usage, "authcode: error: no records (\(file.path))\n")
        #expect(ran.requests.isEmpty)
    }

    @Test func aRecordFieldWinsOverTheSameForm() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile("username,password\nuser3,pw-3\n")
        let ran = Self.users(server, file, ["--form", "password=@-", "--form", "username=alice"], stdin: "wonderland")
        #expect(ran.exit == .success, "\(ran)")
        let login = try #require(server.requests(to: "/login").first)
        #expect(login.form["username"] == "user3")
        #expect(login.form["password"] == "pw-3")
    }

    @Test func userLabelIsNeverASecret() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile("password,username\npw-4,user4\n")
        #expect(Self.lines(Self.users(server, file)).first?["user"] as? String == "user4")
        let noIdentity = try TempFile("password,extra\npw-4,x\n")
        let second = Self.users(server, noIdentity, ["--form", "username=user4"])
        #expect(Self.lines(second).first?["user"] is NSNull, "\(second)")
    }

    @Test func verboseTracesArePrefixedWithTheRecordsLine() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...2))
        let ran = Self.users(server, file, ["-v"])
        let lines = ran.err.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("authcode: line 1: ") || $0.hasPrefix("authcode: line 2: ") }, "\(ran)")
        #expect(!ran.err.contains("pw-1") && !ran.err.contains("pw-2"))
    }

    // MARK: input that cannot be right (issue 22 item 6)

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
    func aHeaderThatCannotBeRightIsExit2BeforeAnyRequest(input: String, message: String, hint: String) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(input)
        let ran = Self.users(server, file)
        expectFailure(ran, .usage, "authcode: error: \(message) (\(file.path))\n\(hint)\n")
        #expect(ran.requests.isEmpty, "no request, not even discovery")
        // The "names" of a file with no header are a user's values: never quoted.
        for secret in ["S3cret", "S3cr3t!", "hunter2", "wonderland", "pw-1", "pw,1"] {
            #expect(!ran.err.contains(secret), "\(ran)")
        }
        #expect(ClientAuthRunTests.options(in: hint).isEmpty, "no option would help: the file is wrong")
        let quiet = Self.users(server, file, ["-q"])
        expectFailure(quiet, .usage, "authcode: error: \(message) (\(file.path))\n")
    }

    /// Field names as real sites spell them pass the check.
    @Test func fieldNamesWithPunctuationStillRun() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile("username,password,user[login],ctl00$Main.form:x_y-z\nuser1,pw-1,a,b\n")
        let ran = Self.users(server, file)
        #expect(ran.exit == .success, "\(ran)")
        #expect(ran.err.isEmpty, "\(ran)")
    }

    @Test(arguments: [
        ("user,pass\nuser1,pw-1\n", "columns (user, pass)"),
        ("{\"user\":\"user1\",\"pass\":\"pw-1\"}\n", "fields (user, pass)"),
        ("username,pass\nuser1,pw-1\n", "columns (username, pass)"),
    ])
    func aLoginFormNoRecordFillsNamesTheRecordsColumns(input: String, given: String) throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(input)
        let ran = Self.users(server, file, ["--print", "access_token"])
        #expect(ran.exit == .batchFailed, "\(ran)")
        let asked = given.hasPrefix("columns (username") ? "password" : "username, password"
        // The POST's walk failing before any credentials went out is tried again as a GET (Flow/MethodFallback.swift),
        // said by -v only (issue 31 item 3).
        // The record's file line (a CSV header is line 1) and its user (issue 31 item 11).
        let line = given.hasPrefix("fields") ? "line 1 (user user1)" : "line 2 (user user1)"
        #expect(ran.err == "authcode: error: \(line): the login page asks for \(asked), which the record's \(given) do not fill"
                + " (\(server.authorizeURL))\nauthcode: 1 of 1 record failed; see the error lines above\n", "\(ran)")
        #expect(!ran.err.contains("pw-1"))
        #expect(server.requests(to: "/login").isEmpty, "the form was never sent half-filled")
    }

    @Test func exit9EndsWithOneSummaryLineUnlessQuiet() throws {
        let server = ScriptedServer(.users)
        let file = try TempFile(Self.csv(1...4, wrong: [2, 3]))
        let json = Self.users(server, file, ["--parallel", "2"])
        #expect(json.exit == .batchFailed, "\(json)")
        #expect(json.err == "authcode: 2 of 4 records failed; see the JSON lines\n", "\(json)")

        let dir = try TempDir()
        let out = dir.path + "/tokens.jsonl"
        let toFile = Self.users(server, file, ["-o", out])
        #expect(toFile.exit == .batchFailed && toFile.out.isEmpty, "\(toFile)")
        #expect(toFile.err == "authcode: 2 of 4 records failed; see the JSON lines in '\(out)'\n", "\(toFile)")

        let quiet = Self.users(server, file, ["-q"])
        #expect(quiet.exit == .batchFailed && quiet.err.isEmpty, "\(quiet)")

        let good = try TempFile(Self.csv(1...2))
        let success = Self.users(server, good)
        #expect(success.exit == .success && success.err.isEmpty, "\(success)")
    }

    /// Issue 31 item 3: a fallback that works is not news, so a batch whose
    /// every record falls back and gets its token says nothing; with -v
    /// every record says it.
    @Test func aFallbackThatWorksIsVerboseOnly() throws {
        let server = ScriptedServer(.users)
        let users = server.route("/authorize")
        server.on("/authorize") { exchange, server in
            exchange.method == "POST" ? .html(Page.message("Forbidden", "POST is not allowed here"), status: 403) : users(exchange, server)
        }
        let file = try TempFile("username,password\n" + String(repeating: "alice,wonderland\n", count: 4))
        let note = "the server refused the POST authorization request (403); sending it again as GET without the --form values"
            + " (--method GET goes there directly)"
        let isNote = { (line: Substring) in line.hasPrefix("authcode: note: line ") && line.hasSuffix(note) }
        let ran = Self.users(server, file, ["--parallel", "2"])
        #expect(ran.exit == .success, "\(ran)")
        #expect(Self.lines(ran).filter { $0["token"] != nil }.count == 4, "\(ran)")
        #expect(ran.err.isEmpty, "\(ran)")
        #expect(server.requests(to: "/authorize").filter { $0.method == .post }.count == 4, "every record tried the POST")

        let verbose = Self.users(server, file, ["-v"])
        #expect(verbose.exit == .success, "\(verbose)")
        #expect(verbose.err.split(separator: "\n").filter(isNote).count == 4, "\(verbose)")
    }
}
