import Core

/// Writes finished records in input order, each whole as soon as every
/// earlier record is done, as the CLI formats them (`print`), and keeps the
/// counts. Only the reading thread formats and writes; workers hand their
/// outcomes over through the lock.
struct OrderedWriter {
    let console: Console
    private(set) var done = 0
    private(set) var failed = 0
    private(set) var outputFailed = false

    init(console: Console) {
        self.console = console
    }

    /// Every outcome that is next in order, written; then the progress line.
    mutating func flush(_ jobs: Lock<BatchJobs>, progress: inout BatchProgress, showProgress: Bool,
                        print: (RecordOutcome) -> PrintedRecord) {
        while let next = jobs.withLock({ $0.takeNextFinished() }) {
            let outcome = print(next)
            done += 1
            if outcome.failed { failed += 1 }
            if let text = outcome.stderr { console.writeErr((showProgress ? "\r\u{1B}[K" : "") + text) }
            if !outputFailed && !console.writeOut(outcome.stdout) { outputFailed = true }
        }
        if showProgress, let text = progress.redraw(done: done, failed: failed) {
            console.writeErr(text)
        }
    }
}
