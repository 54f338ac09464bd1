import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow

/// Flow/Batch/BatchRunner.swift over a transport in memory: records run on
/// worker threads, finish out of order, and are written in input order.
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
            return Server.code(fields["username"] ?? "nobody", for: request)
        }
    }

    static func run(_ csv: String, parallel: Int, transport: ScriptedTransport, print: PrintField = .json) throws
        -> (BatchRunner.Outcome, CapturingConsole) {
        let path = Self.input(csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = CapturingConsole()
        let options = Server.options { $0.users = path; $0.parallel = parallel; $0.print = print; $0.form = [NameValue("password", "shared")] }
        let runner = BatchRunner(options: options, console: console, transport: transport.factory,
                                 format: { result in
                                     guard case .token(let token) = result else { return .text("?\n") }
                                     return .text((token.response.accessToken ?? "") + "\n")
                                 },
                                 wording: TestWording(), showProgress: false)
        return (try runner.run(), console)
    }

    static let users = "username\n" + (1...6).map { "u\($0)" }.joined(separator: "\n") + "\n"

    static func line(_ number: Int, _ user: String) -> String {
        #"{"line":\#(number),"user":"\#(user)","token":{"access_token":"at-\#(user)","token_type":"Bearer","expires_in":3600}}"# + "\n"
    }

    @Test func recordsFinishingOutOfOrderAreWrittenInOrder() throws {
        let (exit, console) = try Self.run(Self.users, parallel: 3, transport: Self.server(hold: "u1", release: "u6"))
        #expect(exit == .allMinted)
        #expect(console.out == (1...6).map { Self.line($0, "u\($0)") }.joined())
        #expect(console.err == "")
    }

    /// Each record is a flow of its own over the shared options: its fields
    /// join the --form values, which stay as given for the next record.
    @Test func eachRecordFillsItsOwnForm() throws {
        let transport = Self.server()
        let (exit, _) = try Self.run(Self.users, parallel: 2, transport: transport)
        #expect(exit == .allMinted)
        let posts = transport.requests.filter { $0.url.hasPrefix(Server.authorize) }.map(Server.fields)
        #expect(Set(posts.compactMap { $0["username"] }) == Set((1...6).map { "u\($0)" }))
        #expect(posts.allSatisfy { $0["password"] == "shared" })
    }

    @Test func aFailedRecordFailsAloneInItsPlace() throws {
        let (exit, console) = try Self.run(Self.users, parallel: 4, transport: Self.server(refuse: "u3"))
        #expect(exit == .someFailed)
        // The CLI words the error (its words: Tests/CLITests/ErrorReportTests.swift); the runner places them.
        let (code, message) = TestWording().recordFailure(.oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant"), at: Server.token)))
        let failed = #"{"line":3,"user":"u3","error":{"exit":\#(code),"message":"# + JSONText.quote(message) + "}}\n"
        #expect(console.out == [1, 2].map { Self.line($0, "u\($0)") }.joined() + failed + [4, 5, 6].map { Self.line($0, "u\($0)") }.joined())
    }

    /// Other --print formats go through the CLI's formatter, in order.
    @Test func otherFormatsUseTheFormatter() throws {
        let (exit, console) = try Self.run(Self.users, parallel: 3, transport: Self.server(hold: "u2", release: "u5"), print: .accessToken)
        #expect(exit == .allMinted)
        #expect(console.out == (1...6).map { "at-u\($0)\n" }.joined())
    }
}

/// Flow/Batch/OrderedWriter.swift and BatchJobs: output waits for its turn.
struct OrderedWriterTests {
    static func outcome(_ text: String, failed: Bool = false) -> BatchJobs.Outcome {
        BatchJobs.Outcome(stdout: text + "\n", stderr: failed ? "authcode: error: \(text)\n" : nil, failed: failed)
    }

    @Test func writesOnlyWhatIsNextInOrder() {
        let jobs = Lock(BatchJobs())
        let console = CapturingConsole()
        var writer = OrderedWriter(console: console)
        var progress = BatchProgress(total: nil, clock: ManualClock().now)
        jobs.withLock { $0.finish(2, Self.outcome("third")); $0.finish(1, Self.outcome("second", failed: true)) }
        writer.flush(jobs, progress: &progress, showProgress: false)
        #expect(console.out == "" && writer.done == 0)
        jobs.withLock { $0.finish(0, Self.outcome("first")) }
        writer.flush(jobs, progress: &progress, showProgress: false)
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
        writer.flush(jobs, progress: &progress, showProgress: false)
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
