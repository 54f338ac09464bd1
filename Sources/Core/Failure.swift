/// Every way a run can fail, as one value: which exit code, what happened, and
/// where. `authcode: error: <message> (<location>)` is printed from it, so the
/// message must never hold a secret; callers build it from redacted parts.
package struct Failure: Error, Equatable, Sendable {
    package var exitCode: ExitCode
    package var message: String
    /// Where it happened: a URL without its query, a flag name, a file.
    package var location: String?
    /// A second line that tells the user what to do about it.
    package var hint: String?

    package init(_ exitCode: ExitCode, _ message: String, at location: String? = nil, hint: String? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.location = location
        self.hint = hint
    }

    package static func usage(_ message: String, hint: String? = "See 'authcode --help'.") -> Failure {
        Failure(.usage, message, hint: hint)
    }

    /// The error line, without a trailing newline.
    package var line: String {
        if let location, !location.isEmpty {
            return "authcode: error: \(message) (\(location))"
        }
        return "authcode: error: \(message)"
    }
}
