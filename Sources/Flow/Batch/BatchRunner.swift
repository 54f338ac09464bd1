#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import HTTP
import OAuth

/// `--users FILE`: one flow per record, `--parallel` at once, output in
/// input order. The input is streamed and at most a window of records is
/// held (running or finished but waiting for an earlier one), so memory
/// stays flat however long the file. Each flow is a `TokenFlow` of its own
/// (cookie jar, state, PKCE, connections); only the endpoints, discovered
/// once, are shared.
package struct BatchRunner {
    package typealias Format = (FlowResult) throws(Failure) -> String

    let options: Options
    let console: Console
    let makeTransport: () throws(Failure) -> Transport
    /// The `--print` text of a result (ends with a newline).
    let format: Format
    /// Whether stderr is a terminal: the progress line is drawn only there.
    let showProgress: Bool

    package init(options: Options, console: Console, makeTransport: @escaping () throws(Failure) -> Transport,
                 format: @escaping Format, showProgress: Bool) {
        self.options = options
        self.console = console
        self.makeTransport = makeTransport
        self.format = format
        self.showProgress = showProgress && options.verbosity != .quiet
    }

    /// What one record produced, ready to write.
    struct Outcome {
        var stdout: String
        var stderr: String?
        var failed: Bool
    }

    struct State {
        var queue: [(slot: Int, record: Record)] = []
        var finished: [Int: Outcome] = [:]
        var nextToWrite = 0
        var inputDone = false
        var done = 0
        var failed = 0
    }

    package func run() throws(Failure) -> ExitCode {
        let input = try BatchInput(path: options.users ?? "-")
        defer { input.close() }
        var reader = RecordReader(source: PatientSource(descriptor: input.descriptor, timeout: options.timeout))
        // The first record before any request: an empty input is exit 2.
        let first: Record?
        do throws(RecordInputError) {
            first = try reader.next()
        } catch {
            throw Failure(.usage, "\(error)", at: input.name)
        }
        let discovery = TokenFlow(options: options, console: console, transport: try makeTransport())
        let endpoints = try discovery.endpoints()
        let total = showProgress ? input.countRecords(shard: options.shard) : nil

        let monitor = Monitor(State())
        let window = max(options.parallel * 4, 16)
        var workers: [Worker] = []
        for _ in 0..<options.parallel {
            guard let worker = Worker({ work(monitor, endpoints) }) else { break }
            workers.append(worker)
        }
        guard !workers.isEmpty else {
            throw Failure(.usage, "cannot start worker threads for --parallel \(options.parallel)")
        }
        var progress = BatchProgress(total: total)
        var writer = OrderedWriter(console: console)
        var slot = 0
        var pending = first
        var inputError: Failure?
        while let record = pending {
            if options.shard?.takes(record.number) ?? true {
                let mine = slot
                monitor.when({ mine - $0.nextToWrite < window || $0.finished[$0.nextToWrite] != nil }) { state in
                    state.queue.append((mine, record))
                }
                monitor.broadcast()
                slot += 1
                writer.flush(monitor, progress: &progress, showProgress: showProgress)
            }
            do throws(RecordInputError) {
                pending = try reader.next()
            } catch {
                inputError = Failure(.usage, "\(error)", at: input.name)
                pending = nil
            }
        }
        monitor.locked { $0.inputDone = true }
        monitor.broadcast()
        while monitor.locked({ $0.nextToWrite }) < slot {
            monitor.when({ $0.finished[$0.nextToWrite] != nil }, timeout: 0.1) { _ in }
            writer.flush(monitor, progress: &progress, showProgress: showProgress)
        }
        for worker in workers { worker.join() }
        if showProgress, let text = progress.redraw(done: writer.done, failed: writer.failed, force: true) {
            console.writeErr(text + "\n")
        }
        if let inputError { throw inputError }
        if writer.outputFailed {
            throw Failure(.outputFailed, "could not write the results to \(console.outputName); \(writer.done) records were minted")
        }
        return writer.failed > 0 ? .batchFailed : .success
    }

    /// A worker: takes records until the input is done and the queue empty.
    func work(_ monitor: Monitor<State>, _ endpoints: ServerEndpoints) {
        while let job = monitor.when({ !$0.queue.isEmpty || $0.inputDone }, { state in
            state.queue.isEmpty ? nil : state.queue.removeFirst()
        }) {
            let outcome = perform(job.record, at: endpoints)
            monitor.locked { $0.finished[job.slot] = outcome }
            monitor.broadcast()
        }
    }

    /// One record's flow, and its output line.
    func perform(_ record: Record, at endpoints: ServerEndpoints) -> Outcome {
        guard let fields = record.fields else {
            return failure(line: record.number, user: nil, Failure(.usage, "bad record: \(record.error ?? "unreadable")"), redactor: nil)
        }
        let user = RecordLabel.user(fields)
        var settings = options
        // A record's field wins over a same-named --form, which is then not sent.
        settings.form = options.form.filter { given in !fields.contains { $0.name == given.name } } + fields
        settings.users = nil
        let prefix = LinePrefixConsole(base: console, prefix: "line \(record.number): ")
        let flow: TokenFlow
        do throws(Failure) {
            flow = TokenFlow(options: settings, console: prefix, transport: try makeTransport())
        } catch {
            return failure(line: record.number, user: user, error, redactor: nil)
        }
        do throws(Failure) {
            let result = try flow.run(at: endpoints)
            if options.print == .json, case .token(let token) = result {
                return Outcome(stdout: RecordLabel.head(line: record.number, user: user) + "\"token\":" + token.response.oneLine + "}\n",
                               stderr: nil, failed: false)
            }
            return Outcome(stdout: try format(result), stderr: nil, failed: false)
        } catch {
            return failure(line: record.number, user: user, error, redactor: flow.redactor)
        }
    }

    func failure(line: Int, user: String?, _ error: Failure, redactor: Redactor?) -> Outcome {
        // Scrubbed, then server text bounded and escaped (Core/ServerText.swift).
        let marked = error.message + (error.location.map { " (\($0))" } ?? "")
        let message = redactor?.finished(marked) ?? ServerText.finished(marked)
        if options.print == .json {
            return Outcome(stdout: RecordLabel.head(line: line, user: user)
                               + "\"error\":{\"exit\":\(error.exitCode.rawValue),\"message\":\(JSONText.quote(message))}}\n",
                           stderr: nil, failed: true)
        }
        return Outcome(stdout: "\n", stderr: "authcode: error: line \(line): \(TerminalText.escapeLine(message))\n", failed: true)
    }
}
