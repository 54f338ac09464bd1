import Core

/// Collects what a run writes, so tests assert stdout and stderr exactly.
/// Batch workers write from their own threads: every access is locked.
package final class CapturingConsole: Console {
    private struct Written: Sendable {
        var out = ""
        var err = ""
        var stdoutClosed = false
    }

    private let written = Lock(Written())

    package init() {}

    package var out: String { written.withLock { $0.out } }
    package var err: String { written.withLock { $0.err } }

    /// Set to make every later stdout write fail, like a closed pipe.
    package var stdoutClosed: Bool {
        get { written.withLock { $0.stdoutClosed } }
        set { written.withLock { $0.stdoutClosed = newValue } }
    }

    @discardableResult package func writeOut(_ text: String) -> Bool {
        written.withLock { written in
            guard !written.stdoutClosed else { return false }
            written.out += text
            return true
        }
    }

    package func writeErr(_ text: String) {
        written.withLock { $0.err += text }
    }
}
