import Core

/// Collects what a run writes, so tests assert stdout and stderr exactly.
package final class CapturingConsole: Console, @unchecked Sendable {
    package private(set) var out = ""
    package private(set) var err = ""

    package init() {}

    package func writeOut(_ text: String) { out += text }
    package func writeErr(_ text: String) { err += text }
}
