/// A record's outcome as the CLI formats it (CLI/BatchPrinter.swift):
/// what goes to stdout, what to stderr, and whether it counts as failed
/// (exit 9, the progress line, the summary).
package struct PrintedRecord: Sendable, Equatable {
    package var stdout: String
    package var stderr: String?
    package var failed: Bool

    package init(stdout: String, stderr: String? = nil, failed: Bool) {
        self.stdout = stdout
        self.stderr = stderr
        self.failed = failed
    }
}
