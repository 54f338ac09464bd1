import Core
import HTTP
import OAuth

/// `--users FILE`: one flow per record, `--parallel` at once, output in
/// input order. The input is streamed and at most a window of records is
/// held (running or finished but waiting for an earlier one), so memory
/// stays flat however long the file. Each flow is a `TokenFlow` of its own
/// (cookie jar, state, PKCE, connections); only the endpoints, discovered
/// once, are shared. The runner is `Sendable`: its workers capture it, and
/// the compiler checks every field they share.
package struct BatchRunner: Sendable {
    /// A result as the CLI formats it: its `--print` text (ending with a
    /// newline), or, when it cannot be printed, the record's failure.
    package enum Formatted: Sendable {
        case text(String)
        /// The exit code and `<what> (<where>)`, server text still marked.
        case failure(exit: Int32, message: String)
    }

    package typealias Format = @Sendable (FlowResult) -> Formatted

    let options: Options
    let console: Console
    let transport: TransportFactory
    /// The `--print` text of a result (ends with a newline).
    let format: Format
    /// The CLI's words: a record's failure line, and what each flow says.
    let wording: any FlowWording
    /// Whether stderr is a terminal: the progress line is drawn only there.
    let showProgress: Bool
    /// Seconds since 1970, for each flow; seconds on a clock that never
    /// jumps, for the progress line's rate.
    let now: @Sendable () -> Double
    let monotonic: @Sendable () -> Double
    /// Whether a record's flow has said the POST→GET fallback note: the
    /// first to fall back says it, the rest only with -v.
    let fallbackNoted = Lock(false)

    package init(options: Options, console: Console, transport: @escaping TransportFactory, format: @escaping Format, wording: any FlowWording,
                 showProgress: Bool, now: @escaping @Sendable () -> Double = SystemClock.now,
                 monotonic: @escaping @Sendable () -> Double = SystemClock.monotonic) {
        self.options = options
        self.console = console
        self.wording = wording
        // The flows of a batch share TLS sessions and DNS answers, never
        // connections or cookies (TransportSettings.sharesSessions).
        self.transport = { settings throws(HTTPError) in
            var shared = settings
            shared.sharesSessions = true
            return try transport(shared)
        }
        self.format = format
        self.showProgress = showProgress && options.verbosity != .quiet
        self.now = now
        self.monotonic = monotonic
    }

    /// Whether every record minted its token.
    package enum Outcome: Equatable, Sendable {
        case allMinted
        /// At least one record failed; each said so on its own line.
        case someFailed
    }

    package func run() throws(FlowError) -> Outcome {
        let input: BatchInput
        do {
            input = try BatchInput(path: options.users ?? "-")
        } catch {
            throw .batch(error)
        }
        defer { input.close() }
        var reader = RecordReader(source: PatientSource(descriptor: input.descriptor, timeout: options.timeout))
        // The first record before any request: an empty input is refused.
        let first: Record?
        do throws(BatchError) {
            do throws(RecordInputError) {
                first = try reader.next()
            } catch {
                // A headerless one-line file is "no records": its one line became the header.
                if reader.format == .csv { try CSVHeaderCheck.check(columns: reader.columns, first: nil, input: input.name) }
                throw .input(error, at: input.name)
            }
            if reader.format == .csv { try CSVHeaderCheck.check(columns: reader.columns, first: first?.fields, input: input.name) }
            try ReservedColumns.checkFirst(first, format: reader.format, input: input.name)
        } catch {
            throw .batch(error)
        }
        let discovery = try TokenFlow(options: options, console: console, makeTransport: transport, wording: wording, now: now)
        let endpoints = try discovery.endpoints()
        let total = showProgress ? input.countRecords(shard: options.shard) : nil

        let jobs = Lock(BatchJobs())
        let window = max(options.parallel * 4, 16)
        var workers: [Worker] = []
        for _ in 0..<options.parallel {
            guard let worker = Worker({ [kind = reader.format == .jsonLines ? FieldKind.field : .column] in work(jobs, endpoints, kind) }) else { break }
            workers.append(worker)
        }
        guard !workers.isEmpty else {
            throw .batch(.workersNotStarted(parallel: options.parallel))
        }
        var progress = BatchProgress(total: total, clock: monotonic)
        var writer = OrderedWriter(console: console)
        var slot = 0
        var pending = first
        var inputError: FlowError?
        while let record = pending {
            if options.shard?.takes(record.number) ?? true {
                let mine = slot
                jobs.wait(until: { $0.hasRoom(for: mine, window: window) }, then: { $0.add(record, slot: mine) })
                slot += 1
                writer.flush(jobs, progress: &progress, showProgress: showProgress)
            }
            do throws(RecordInputError) {
                pending = try reader.next()
            } catch {
                inputError = .batch(.input(error, at: input.name))
                pending = nil
            }
        }
        jobs.withLock { $0.endInput() }
        while jobs.read({ $0.nextToWrite }) < slot {
            // At most 0.1 s between redraws of the progress line.
            _ = jobs.wait(until: { $0.nextIsFinished }, atMost: 0.1)
            writer.flush(jobs, progress: &progress, showProgress: showProgress)
        }
        for worker in workers { worker.join() }
        if showProgress, let text = progress.redraw(done: writer.done, failed: writer.failed, force: true) {
            console.writeErr(text + "\n")
        }
        if let inputError { throw inputError }
        if writer.outputFailed {
            throw .batch(.outputFailed(output: console.outputName, minted: writer.done))
        }
        guard writer.failed > 0 else { return .allMinted }
        if options.verbosity != .quiet { console.writeErr(summary(failed: writer.failed, of: writer.done) + "\n") }
        return .someFailed
    }

    /// A failed batch's last stderr line: how many failed, and where their errors are.
    func summary(failed: Int, of total: Int) -> String {
        let place = options.print != .json ? "see the error lines above"
            : console.outputName == "stdout" ? "see the JSON lines" : "see the JSON lines in \(console.outputName)"
        return "authcode: \(failed) of \(total) \(total == 1 ? "record" : "records") failed; \(place)"
    }

    /// A worker: takes records until the input is done and the queue empty.
    /// `kind` is what the input calls a record's names.
    func work(_ jobs: Lock<BatchJobs>, _ endpoints: ServerEndpoints, _ kind: FieldKind) {
        while let job = jobs.wait(until: { $0.workerMayGo }, then: { $0.take() }) {
            let outcome = perform(job.record, at: endpoints, kind: kind)
            jobs.withLock { $0.finish(job.slot, outcome) }
        }
    }

    /// One record's flow, and its output line.
    func perform(_ record: Record, at endpoints: ServerEndpoints, kind: FieldKind) -> BatchJobs.Outcome {
        guard let fields = record.fields else {
            return failure(line: record.number, user: nil, .batch(.badRecord(record.error)), redactor: nil)
        }
        let user = RecordLabel.user(fields)
        // A CSV header with such a column stopped the run before it began.
        if let (name, reserved) = ReservedColumns.refusal(fields) {
            return failure(line: record.number, user: user, .batch(.badRecordField(name, reserved)), redactor: nil)
        }
        // A record's field wins over a same-named --form, which is then not sent.
        let form = options.form.filter { given in !fields.contains { $0.name == given.name } } + fields
        let prefix = LinePrefixConsole(base: console, prefix: "line \(record.number): ")
        let flow: TokenFlow
        do throws(FlowError) {
            flow = try TokenFlow(options: options, console: prefix, makeTransport: transport, wording: wording, form: form, now: now)
            flow.fallbackNoted = fallbackNoted
        } catch {
            return failure(line: record.number, user: user, error, redactor: nil)
        }
        do throws(FlowError) {
            let result = try flow.run(at: endpoints)
            if options.print == .json, case .token(let token) = result {
                return BatchJobs.Outcome(stdout: RecordLabel.head(line: record.number, user: user) + "\"token\":" + token.response.oneLine + "}\n",
                                         stderr: nil, failed: false)
            }
            switch format(result) {
            case .text(let text):
                return BatchJobs.Outcome(stdout: text, stderr: nil, failed: false)
            case .failure(let exit, let message):
                return failure(line: record.number, user: user, exit: exit, marked: message, redactor: flow.redactor)
            }
        } catch {
            return failure(line: record.number, user: user, Self.naming(fields, kind: kind, in: error), redactor: flow.redactor)
        }
    }

    /// A login form nothing filled: the record's columns were meant to, so
    /// name them beside the fields the form asks for (a header spelled
    /// unlike the page's field names, `user` for `username`).
    static func naming(_ fields: [NameValue], kind: FieldKind, in error: FlowError) -> FlowError {
        let wanted: [String]
        let place: String
        switch error {
        case .walk(.form(.missingCredentials(let names), let at)): (wanted, place) = (names, at)
        case .walk(.unfilledField(let name, seeded: false, let at)): (wanted, place) = ([name], at)
        default: return error
        }
        return .batch(.unfilledByRecord(asked: wanted, given: fields.map(\.name), kind, at: place))
    }

    func failure(line: Int, user: String?, _ error: FlowError, redactor: Redactor?) -> BatchJobs.Outcome {
        let (exit, marked) = wording.recordFailure(error)
        return failure(line: line, user: user, exit: exit, marked: marked, redactor: redactor)
    }

    func failure(line: Int, user: String?, exit: Int32, marked: String, redactor: Redactor?) -> BatchJobs.Outcome {
        // Scrubbed, then server text bounded and escaped (Core/ServerText/ServerText.swift).
        let message = redactor?.finished(marked) ?? ServerText.finished(marked)
        if options.print == .json {
            return BatchJobs.Outcome(stdout: RecordLabel.head(line: line, user: user)
                                         + "\"error\":{\"exit\":\(exit),\"message\":\(JSONText.quote(message))}}\n",
                                     stderr: nil, failed: true)
        }
        return BatchJobs.Outcome(stdout: "\n", stderr: "authcode: error: line \(line): \(TerminalText.escapeLine(message))\n", failed: true)
    }
}
