/// One value as given, and whether it came from the command line (where
/// other users can read it in `ps`), the environment or a config file.
package struct RawOptionValue: Equatable, Sendable {
    package var text: String
    package var fromCommandLine: Bool
    /// `FILE line N` for a value from a config file, so an error about it
    /// says where to fix it.
    package var source: String?

    package init(text: String, fromCommandLine: Bool, source: String? = nil) {
        self.text = text
        self.fromCommandLine = fromCommandLine
        self.source = source
    }
}
