/// A mistake in what the user typed, worded where it is found: the parser
/// and the option rules know the option, its source and what would fix it
/// (`Did you mean …`). Its exit code is chosen with every other error's in
/// ErrorReport.swift.
package struct UsageError: Error, Equatable {
    package var message: String
    /// Where: a config file's line, an environment variable.
    package var location: String?
    package var hint: String?

    package static let seeHelp = "See 'authcode --help'."

    package init(_ message: String, at location: String? = nil, hint: String? = UsageError.seeHelp) {
        self.message = message
        self.location = location
        self.hint = hint
    }
}
