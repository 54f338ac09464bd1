import Core

/// Writes finished records to stdout in input order, each line whole as
/// soon as every earlier record is done, and keeps the counts.
struct OrderedWriter {
    let console: Console
    private(set) var done = 0
    private(set) var failed = 0
    private(set) var outputFailed = false

    init(console: Console) {
        self.console = console
    }

    mutating func flush(_ monitor: Monitor<BatchRunner.State>, progress: inout BatchProgress, showProgress: Bool) {
        while let outcome = monitor.locked({ state -> BatchRunner.Outcome? in
            guard let outcome = state.finished.removeValue(forKey: state.nextToWrite) else { return nil }
            state.nextToWrite += 1
            return outcome
        }) {
            monitor.broadcast()
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
