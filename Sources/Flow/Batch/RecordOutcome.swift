import Core

/// What one record of a batch came to, before any output format: its
/// number, its user, and its flow's result or why it failed. The CLI
/// formats it (CLI/BatchPrinter.swift) as it formats a single run's result;
/// OrderedWriter.swift writes what it makes of it, in input order.
package struct RecordOutcome: Sendable {
    /// The record's number: 1 for the first (a CSV header is not one).
    package let line: Int
    /// The line of the input the record starts on (a CSV header is line 1),
    /// for a `--print FIELD` error line that says where to look.
    package let fileLine: Int
    /// The record's `user` (RecordLabel.swift); nil when it has none or
    /// could not be read.
    package let user: String?
    package let result: Result<FlowResult, FlowError>
    /// The secrets the record's flow knew (none if it never started): its
    /// error line — or one that formatting its result fails with — is
    /// scrubbed of them, as a single run's is.
    package let secrets: RememberedSecrets

    package init(line: Int, fileLine: Int? = nil, user: String?, result: Result<FlowResult, FlowError>, secrets: RememberedSecrets = .none) {
        self.line = line
        self.fileLine = fileLine ?? line
        self.user = user
        self.result = result
        self.secrets = secrets
    }
}
