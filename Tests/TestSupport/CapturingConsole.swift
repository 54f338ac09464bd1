import Core

/// Collects what a run writes, so tests assert stdout and stderr exactly.
package final class CapturingConsole: Console, @unchecked Sendable {
    package private(set) var out = ""
    package private(set) var err = ""

    package init() {}

    /// Set to make every later stdout write fail, like a closed pipe.
    package var stdoutClosed = false

    @discardableResult package func writeOut(_ text: String) -> Bool {
        guard !stdoutClosed else { return false }
        out += text
        return true
    }
    package func writeErr(_ text: String) { err += text }
}
