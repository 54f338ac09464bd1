import Core
import HTTP
import OAuth

/// `--users FILE`: one flow per record, `--parallel` at once, output in
/// input order. The input is streamed and at most a window of records is
/// held (running or finished but waiting for an earlier one), so memory
/// stays flat however long the file. Each flow is a `TokenFlow` of its own
/// (cookie jar, state, PKCE, connections); only the endpoints, discovered
/// once, are shared. The runner is `Sendable`: its workers capture it, and
/// the compiler checks every field they share. It prints nothing of a
/// record itself: each record's outcome goes to the caller's `print`
/// (the CLI's formats), in input order.
package struct BatchRunner: Sendable {
    /// Each record's flow is built from these, its fields over `walk.form`.
    let settings: FlowSettings
    let batch: BatchSettings
    /// Where the flows' traces and notes go, the progress line, and the
    /// printed records.
    let console: Console
    let transport: TransportFactory
    /// Whether stderr is a terminal: the progress line is drawn only there.
    let showProgress: Bool
    /// Seconds since 1970, for each flow; seconds on a clock that never
    /// jumps, for the progress line's rate.
    let now: @Sendable () -> Double
    let monotonic: @Sendable () -> Double
    /// The warnings a record's flow has said: each once per batch.
    let warningsSaid = Lock(Set<String>())
    /// The CLI's words, for each record's flow.
    let wording: any FlowWording

    package init(settings: FlowSettings, batch: BatchSettings, console: Console, transport: @escaping TransportFactory, wording: any FlowWording,
                 showProgress: Bool, now: @escaping @Sendable () -> Double = SystemClock.now,
                 monotonic: @escaping @Sendable () -> Double = SystemClock.monotonic) {
        self.settings = settings
        self.batch = batch
        self.console = console
        self.wording = wording
        // The flows of a batch share TLS sessions and DNS answers, never
        // connections or cookies (TransportSettings.sharesSessions).
        self.transport = { settings throws(HTTPError) in
            var shared = settings
            shared.sharesSessions = true
            return try transport(shared)
        }
        self.showProgress = showProgress && settings.output.verbosity != .quiet
        self.now = now
        self.monotonic = monotonic
    }

    /// Every record's flow; `print` formats each outcome, on this thread, in
    /// input order, as soon as the records before it are done, and what it
    /// makes is written at once.
    package func run(printing print: (RecordOutcome) -> PrintedRecord) throws(FlowError) -> BatchTally {
        let input: BatchInput
        do {
            input = try BatchInput(path: batch.input ?? "-")
        } catch {
            throw .batch(error)
        }
        defer { input.close() }
        var reader = RecordReader(source: PatientSource(descriptor: input.descriptor, timeout: settings.connection.transport.timeout))
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
        let discovery = try TokenFlow(settings: settings, console: console, makeTransport: transport, wording: wording, now: now)
        let endpoints = try discovery.endpoints()
        let total = showProgress ? input.countRecords(shard: batch.shard) : nil

        let jobs = Lock(BatchJobs())
        let window = max(batch.parallel * 4, 16)
        var workers: [Worker] = []
        for _ in 0..<batch.parallel {
            guard let worker = Worker({ [kind = reader.format == .jsonLines ? FieldKind.field : .column] in work(jobs, endpoints, kind) }) else { break }
            workers.append(worker)
        }
        guard !workers.isEmpty else {
            throw .batch(.workersNotStarted(parallel: batch.parallel))
        }
        var progress = BatchProgress(total: total, clock: monotonic)
        var writer = OrderedWriter(console: console)
        var slot = 0
        var pending = first
        var inputError: FlowError?
        while let record = pending {
            if batch.shard?.takes(record.number) ?? true {
                let mine = slot
                jobs.wait(until: { $0.hasRoom(for: mine, window: window) }, then: { $0.add(record, slot: mine) })
                slot += 1
                writer.flush(jobs, progress: &progress, showProgress: showProgress, print: print)
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
            writer.flush(jobs, progress: &progress, showProgress: showProgress, print: print)
        }
        for worker in workers { worker.join() }
        if showProgress, let text = progress.redraw(done: writer.done, failed: writer.failed, force: true) {
            console.writeErr(text + "\n")
        }
        if let inputError { throw inputError }
        if writer.outputFailed {
            throw .batch(.outputFailed(output: console.outputName, minted: writer.done))
        }
        return BatchTally(done: writer.done, failed: writer.failed)
    }

    /// A worker: takes records until the input is done and the queue empty.
    /// `kind` is what the input calls a record's names.
    func work(_ jobs: Lock<BatchJobs>, _ endpoints: ServerEndpoints, _ kind: FieldKind) {
        while let job = jobs.wait(until: { $0.workerMayGo }, then: { $0.take() }) {
            let outcome = perform(job.record, at: endpoints, kind: kind)
            jobs.withLock { $0.finish(job.slot, outcome) }
        }
    }

    /// One record's flow, and what it came to.
    func perform(_ record: Record, at endpoints: ServerEndpoints, kind: FieldKind) -> RecordOutcome {
        guard let fields = record.fields else {
            return RecordOutcome(line: record.number, fileLine: record.fileLine, user: nil, result: .failure(.batch(.badRecord(record.error))))
        }
        let user = RecordLabel.user(fields)
        // A CSV header with such a column stopped the run before it began.
        if let (name, reserved) = ReservedColumns.refusal(fields) {
            return RecordOutcome(line: record.number, fileLine: record.fileLine, user: user, result: .failure(.batch(.badRecordField(name, reserved))))
        }
        // A record's field wins over a same-named --form, which is then not sent.
        let form = settings.walk.form.filter { given in !fields.contains { $0.name == given.name } } + fields
        let prefix = LinePrefixConsole(base: console, prefix: "line \(record.number): ")
        let flow: TokenFlow
        do throws(FlowError) {
            flow = try TokenFlow(settings: settings, console: prefix, makeTransport: transport, wording: wording, form: form, now: now)
            flow.warningsSaid = warningsSaid
        } catch {
            return RecordOutcome(line: record.number, fileLine: record.fileLine, user: user, result: .failure(error))
        }
        let result: Result<FlowResult, FlowError>
        do throws(FlowError) {
            result = .success(try flow.run(at: endpoints))
        } catch {
            result = .failure(Self.naming(fields, kind: kind, in: error))
        }
        return RecordOutcome(line: record.number, fileLine: record.fileLine, user: user, result: result, secrets: flow.redactor.remembered)
    }

    /// A login form nothing filled: the record's columns were meant to, so
    /// name them beside the fields the form asks for (a header spelled
    /// unlike the page's field names, `user` for `username`).
    static func naming(_ fields: [NameValue], kind: FieldKind, in error: FlowError) -> FlowError {
        let wanted: [String]
        let place: String
        guard case .walk(let walkError) = error else { return error }
        switch walkError.withoutFormNames {
        case .form(.missingCredentials(let names), let at): (wanted, place) = (names, at)
        case .unfilledField(let name, seeded: false, let at): (wanted, place) = ([name], at)
        case .driver(.credentialsMissing(_, let names, let at)): (wanted, place) = (names, at)
        default: return error
        }
        return .batch(.unfilledByRecord(asked: wanted, given: fields.map(\.name), kind, at: place))
    }
}
