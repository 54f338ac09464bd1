import Core

/// One record's stderr in a batch: each line prefixed with the record's
/// line number and written whole (one write per line), so the traces of
/// flows running at once interleave by line, never inside one.
final class LinePrefixConsole: Console {
    private let base: Console
    private let prefix: String
    /// A line begun but not ended yet. One flow writes here, from its own
    /// thread; the lock makes that a checked fact rather than a promise.
    private let pending = Lock("")

    init(base: Console, prefix: String) {
        self.base = base
        self.prefix = prefix
    }

    @discardableResult func writeOut(_ text: String) -> Bool { base.writeOut(text) }
    @discardableResult func writeOut(bytes: [UInt8]) -> Bool { base.writeOut(bytes: bytes) }

    func writeErr(_ text: String) {
        pending.withLock { pending in
            pending += text
            while let newline = pending.firstIndex(of: "\n") {
                base.writeErr(prefixed(pending[...newline]))
                pending = String(pending[pending.index(after: newline)...])
            }
        }
    }

    /// `authcode: note: x` becomes `authcode: note: line 3: x`, like the
    /// batch's own error lines; trace lines get `authcode: line 3: `.
    private func prefixed(_ line: Substring) -> String {
        for kind in ["note", "warning", "hint", "error"] where line.hasPrefix("authcode: \(kind): ") {
            return "authcode: \(kind): \(prefix)" + line.dropFirst("authcode: \(kind): ".count)
        }
        return "authcode: \(prefix)" + line
    }
}
