import Core

/// One record's stderr in a batch: each line prefixed with the record's
/// line number and written whole (one write per line), so the traces of
/// flows running at once interleave by line, never inside one.
final class LinePrefixConsole: Console {
    private let base: Console
    private let prefix: String
    private var pending = ""

    init(base: Console, prefix: String) {
        self.base = base
        self.prefix = prefix
    }

    @discardableResult func writeOut(_ text: String) -> Bool { base.writeOut(text) }

    func writeErr(_ text: String) {
        pending += text
        while let newline = pending.firstIndex(of: "\n") {
            base.writeErr(prefix + pending[...newline])
            pending = String(pending[pending.index(after: newline)...])
        }
    }
}
