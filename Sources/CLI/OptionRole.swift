/// What the parser does with an option besides filling its setting.
package enum OptionRole: Sendable, Equatable {
    /// A setting: from the command line, the environment or a config file.
    case setting
    /// Answered on its own, from the command line only (help, version, a
    /// completion script): nothing else is read, nothing is checked.
    case answer
    /// Names config files: read by the parser before the settings are
    /// built, and never inside a config file itself.
    case configFile
}
