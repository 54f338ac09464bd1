import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow

/// Flow/Batch/BatchRunner.swift over a transport in memory: records run on
/// worker threads, finish out of order, and their outcomes are handed out
/// and written in input order. The output formats are the CLI's
/// (CLITests/BatchPrinterTests.swift); here each outcome is written as
/// `line user result`, to assert exactly what each record came to.
/// `make test` runs this suite under the thread sanitizer too.
struct BatchRunnerTests {
    static func input(_ text: String) -> String {
        let path = NSTemporaryDirectory() + "authcode-batch-unit-\(UUID().uuidString.prefix(8)).csv"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    /// An authorization server whose code is the user's name; `hold`
    /// makes that user's token request wait until `release` has asked for
    /// its own, so the first record finishes last.
    static func server(hold: String? = nil, release: String? = nil, refuse: String? = nil) -> ScriptedTransport {
        let released = Lock(false)
        return ScriptedTransport { request in
            let fields = Server.fields(request)
            if request.url.hasPrefix(Server.token) {
                let user = fields["code"] ?? ""
                if user == release { released.withLock { $0 = true } }
                if user == hold { released.wait(until: { $0 }, then: { _ in }) }
                if user == refuse { return Server.tokenAnswer(#"{"error":"invalid_grant"}"#, status: 400) }
                return Server.token(for: request)
            }
            if request.url.hasPrefix(Server.login) { return Server.code(fields["username"] ?? "nobody", afterLogin: request) }
            return Server.loginPage(for: request)
        }
    }

    /// Each outcome as one line: its number, its user, and the token
    /// endpoint's answer or the error as a value (the CLI's words for each
    /// error are CLITests/ErrorReportTests.swift's).
    static func printed(_ outcome: RecordOutcome) -> PrintedRecord {
        let head = "\(outcome.line) \(outcome.user ?? "-") "
        switch outcome.result {
        case .success(.token(let token)):
            return PrintedRecord(stdout: head + token.response.oneLine + "\n", failed: false)
        case .success(let other):
            return PrintedRecord(stdout: head + "\(other)\n", failed: false)
        case .failure(let error):
            return PrintedRecord(stdout: head + "failed: \(error)\n", stderr: "error \(outcome.line)\n", failed: true)
        }
    }

    static func run(_ csv: String, parallel: Int, transport: ScriptedTransport,
                    print: (RecordOutcome) -> PrintedRecord = printed) throws -> (BatchTally, CapturingConsole) {
        let path = Self.input(csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = CapturingConsole()
        var batch = BatchSettings()
        batch.input = path
        batch.parallel = parallel
        let runner = BatchRunner(settings: Server.settings { $0.walk.form = [NameValue("password", "shared")] }, batch: batch, console: console,
                                 transport: transport.factory, wording: TestWording(), showProgress: false)
        return (try runner.run(printing: print), console)
    }

    static let users = "username\n" + (1...6).map { "u\($0)" }.joined(separator: "\n") + "\n"

    static func line(_ number: Int, _ user: String) -> String {
        #"\#(number) \#(user) {"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}"# + "\n"
    }

    @Test func recordsFinishingOutOfOrderAreWrittenInOrder() throws {
        let (tally, console) = try Self.run(Self.users, parallel: 3, transport: Self.server(hold: "u1", release: "u6"))
        #expect(tally == BatchTally(done: 6, failed: 0))
        #expect(console.out == (1...6).map { Self.line($0, "u\($0)") }.joined())
        #expect(console.err == "")
    }

    /// Each record is a flow of its own over the shared options: its fields
    /// join the --form values, which stay as given for the next record.
    @Test func eachRecordFillsItsOwnForm() throws {
        let transport = Self.server()
        let (tally, _) = try Self.run(Self.users, parallel: 2, transport: transport)
        #expect(tally == BatchTally(done: 6, failed: 0))
        let posts = transport.requests.filter { $0.url.hasPrefix(Server.login) }.map(Server.fields)
        #expect(Set(posts.compactMap { $0["username"] }) == Set((1...6).map { "u\($0)" }))
        #expect(posts.allSatisfy { $0["password"] == "shared" })
        #expect(transport.requests.filter { $0.url.hasPrefix(Server.authorize) }.allSatisfy { Server.fields($0)["username"] == nil },
                "the authorization requests carry no --form value")
    }

    @Test func aFailedRecordFailsAloneInItsPlace() throws {
        let (tally, console) = try Self.run(Self.users, parallel: 4, transport: Self.server(refuse: "u3"))
        #expect(tally == BatchTally(done: 6, failed: 1))
        let failed = "3 u3 failed: \(FlowError.oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant"), at: Server.token)))\n"
        #expect(console.out == [1, 2].map { Self.line($0, "u\($0)") }.joined() + failed + [4, 5, 6].map { Self.line($0, "u\($0)") }.joined())
        #expect(console.err == "error 3\n")
    }

    /// What the caller makes of each outcome is what is written, in order,
    /// and what it counts as failed is counted.
    @Test func theCallerFormatsEachOutcome() throws {
        let (tally, console) = try Self.run(Self.users, parallel: 3, transport: Self.server(hold: "u2", release: "u5")) { outcome in
            guard case .success(.token(let token)) = outcome.result else { return PrintedRecord(stdout: "?\n", failed: true) }
            let accessToken = token.response.accessToken ?? ""
            return PrintedRecord(stdout: accessToken + "\n", failed: accessToken == "at-u4")
        }
        #expect(tally == BatchTally(done: 6, failed: 1))
        #expect(console.out == (1...6).map { "at-u\($0)\n" }.joined())
    }

    /// A failed record's outcome carries the secrets its flow knew, so the
    /// line made of it is scrubbed like a single run's (CLI/BatchPrinter.swift).
    @Test func aFailedRecordCarriesItsFlowsSecrets() throws {
        let transport = ScriptedTransport { request in
            // The error echoes the record's password (a --form value).
            if request.url.hasPrefix(Server.token) { return Server.tokenAnswer(#"{"error":"invalid_grant","error_description":"bad pw-of-u2"}"#, status: 400) }
            if request.url.hasPrefix(Server.login) { return Server.code(Server.fields(request)["username"] ?? "", afterLogin: request) }
            return Server.loginPage(for: request)
        }
        var outcomes: [RecordOutcome] = []
        _ = try Self.run("username,password\nu1,pw-of-u1\nu2,pw-of-u2\n", parallel: 2, transport: transport) { outcome in
            outcomes.append(outcome)
            return PrintedRecord(stdout: "", failed: true)
        }
        #expect(outcomes.map(\.line) == [1, 2] && outcomes.map(\.user) == ["u1", "u2"])
        guard case .failure(let error) = outcomes[1].result else { Issue.record("\(outcomes[1])"); return }
        #expect(error == .oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant", description: "bad pw-of-u2"), at: Server.token)),
                "the error as the flow threw it")
        #expect(Redactor(outcomes[1].secrets).finished("bad pw-of-u2") == "bad [redacted]")
        #expect(Redactor(outcomes[0].secrets).finished("pw-of-u1 pw-of-u2 shared") == "[redacted] pw-of-u2 [redacted]", "each record its own")
    }
}

/// Flow/Batch/OrderedWriter.swift and BatchJobs: output waits for its turn.
struct OrderedWriterTests {
    /// An outcome whose user is the text to write; `failed`: an error.
    static func outcome(_ text: String, failed: Bool = false) -> RecordOutcome {
        RecordOutcome(line: 0, user: text, result: failed ? .failure(.batch(.badRecord(text))) : .success(.forgotten))
    }

    static func print(_ outcome: RecordOutcome) -> PrintedRecord {
        let text = outcome.user ?? ""
        guard case .failure = outcome.result else { return PrintedRecord(stdout: text + "\n", failed: false) }
        return PrintedRecord(stdout: text + "\n", stderr: "authcode: error: \(text)\n", failed: true)
    }

    @Test func writesOnlyWhatIsNextInOrder() {
        let jobs = Lock(BatchJobs())
        let console = CapturingConsole()
        var writer = OrderedWriter(console: console)
        var progress = BatchProgress(total: nil, clock: ManualClock().now)
        jobs.withLock { $0.finish(2, Self.outcome("third")); $0.finish(1, Self.outcome("second", failed: true)) }
        writer.flush(jobs, progress: &progress, showProgress: false, print: Self.print)
        #expect(console.out == "" && writer.done == 0)
        jobs.withLock { $0.finish(0, Self.outcome("first")) }
        writer.flush(jobs, progress: &progress, showProgress: false, print: Self.print)
        #expect(console.out == "first\nsecond\nthird\n")
        #expect(console.err == "authcode: error: second\n")
        #expect(writer.done == 3 && writer.failed == 1 && !writer.outputFailed)
        #expect(jobs.read { $0.nextToWrite } == 3)
    }

    @Test func aClosedStdoutIsNoticedAndCountingGoesOn() {
        let jobs = Lock(BatchJobs())
        let console = CapturingConsole()
        console.stdoutClosed = true
        var writer = OrderedWriter(console: console)
        var progress = BatchProgress(total: nil, clock: ManualClock().now)
        jobs.withLock { $0.finish(0, Self.outcome("a")); $0.finish(1, Self.outcome("b")) }
        writer.flush(jobs, progress: &progress, showProgress: false, print: Self.print)
        #expect(writer.outputFailed && writer.done == 2)
    }

    /// The reader waits while a window of records is in flight, unless the
    /// next one to write is done.
    @Test func theWindowBoundsWhatIsHeld() {
        var jobs = BatchJobs()
        #expect(jobs.hasRoom(for: 3, window: 4))
        #expect(!jobs.hasRoom(for: 4, window: 4))
        jobs.finish(0, Self.outcome("a"))
        #expect(jobs.hasRoom(for: 4, window: 4))
        _ = jobs.takeNextFinished()
        #expect(jobs.hasRoom(for: 4, window: 4) && !jobs.hasRoom(for: 5, window: 4))
    }

    @Test func workersTakeInOrderAndStopAtTheEnd() {
        var jobs = BatchJobs()
        #expect(!jobs.workerMayGo)
        jobs.add(Record(number: 1, content: .fields([])), slot: 0)
        jobs.add(Record(number: 3, content: .error("bad")), slot: 1)
        #expect(jobs.workerMayGo)
        #expect(jobs.take()?.slot == 0 && jobs.take()?.record.number == 3)
        #expect(jobs.take() == nil && !jobs.workerMayGo)
        jobs.endInput()
        #expect(jobs.workerMayGo && jobs.take() == nil)
    }
}

/// Flow/Batch/BatchProgress.swift with its clock in the test's hand.
struct BatchProgressTests {
    @Test(arguments: [
        (200 as Int?, 50, 0, 10.0, "50/200 · 5.0/s · ETA 30s"),
        (200, 50, 2, 2.0, "50/200 · 2 failed · 25/s · ETA 6s"),
        (nil, 7, 0, 2.0, "7 done · 3.5/s"),
        (10, 10, 1, 1.0, "10/10 · 1 failed · 10/s"),
    ])
    func line(total: Int?, done: Int, failed: Int, after seconds: Double, expected: String) {
        let clock = ManualClock(100)
        let progress = BatchProgress(total: total, clock: clock.now)
        #expect(progress.line(done: done, failed: failed, now: 100 + seconds) == expected)
    }

    @Test func redrawsAtMostTenTimesASecond() {
        let clock = ManualClock(100)
        var progress = BatchProgress(total: 4, clock: clock.now)
        clock.advance(by: 1)
        #expect(progress.redraw(done: 1, failed: 0) == "\r\u{1B}[K1/4 · 1.0/s · ETA 3s")
        clock.advance(by: 0.05)
        #expect(progress.redraw(done: 2, failed: 0) == nil)
        #expect(progress.redraw(done: 2, failed: 0, force: true) != nil)
        clock.advance(by: 0.2)
        #expect(progress.redraw(done: 3, failed: 0) != nil)
    }
}
