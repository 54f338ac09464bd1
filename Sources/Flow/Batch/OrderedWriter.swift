import Core

/// Writes finished records to stdout in input order, each line whole as
/// soon as every earlier record is done, and keeps the counts. Only the
/// reading thread writes; workers hand their outcomes over through the lock.
struct OrderedWriter {
    let console: Console
    private(set) var done = 0
    private(set) var failed = 0
    private(set) var outputFailed = false

    init(console: Console) {
        self.console = console
    }

    /// Every outcome that is next in order, written; then the progress line.
    mutating func flush(_ jobs: Lock<BatchJobs>, progress: inout BatchProgress, showProgress: Bool) {
        while let outcome = jobs.withLock({ $0.takeNextFinished() }) {
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
