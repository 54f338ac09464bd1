/// Every way a run can fail, as one value: which exit code, what happened, and
/// where. `authcode: error: <message> (<location>)` is printed from it, so the
/// message must never hold a secret; callers build it from redacted parts.
/// Code that acts on a failure switches on `exitCode` and `reason`, never
/// on the text.
package struct Failure: Error, Equatable, Sendable {
    package var exitCode: ExitCode
    package var message: String
    /// Where it happened: a URL without its query, a flag name, a file.
    package var location: String?
    /// A second line that tells the user what to do about it.
    package var hint: String?
    /// What it means to the code (FailureReason.swift); nil for most.
    package var reason: FailureReason?

    package init(_ exitCode: ExitCode, _ message: String, at location: String? = nil, hint: String? = nil, reason: FailureReason? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.location = location
        self.hint = hint
        self.reason = reason
    }

    package static func usage(_ message: String, hint: String? = "See 'authcode --help'.") -> Failure {
        Failure(.usage, message, hint: hint)
    }

    /// The error line, without a trailing newline, finished for the
    /// terminal (ServerText.swift). Scrub secrets from `markedLine` and
    /// finish that instead where the run's secrets are known (`Redactor.line`).
    package var line: String { ServerText.finished(markedLine) }

    /// The error line with server text still marked, not yet bounded.
    package var markedLine: String {
        if let location, !location.isEmpty {
            return "authcode: error: \(message) (\(location))"
        }
        return "authcode: error: \(message)"
    }

    /// Two failures are equal when they say and mean the same: same exit
    /// code and reason, and the same text once finished for the terminal.
    package static func == (lhs: Failure, rhs: Failure) -> Bool {
        lhs.exitCode == rhs.exitCode && lhs.reason == rhs.reason && ServerText.finished(lhs.message) == ServerText.finished(rhs.message)
            && lhs.location.map { ServerText.finished($0) } == rhs.location.map { ServerText.finished($0) }
            && lhs.hint.map { ServerText.finished($0) } == rhs.hint.map { ServerText.finished($0) }
    }
}
