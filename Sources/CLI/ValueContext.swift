import Core

/// What a value parser may use: the flag's name for messages, the `@FILE`
/// reader, and where to leave a hint for stderr.
struct ValueContext {
    let flag: String
    /// `--totp-secret <secret>`.
    let display: String
    let reader: ValueReader

    /// The value itself, or the contents of the file it names with `@`.
    func resolve(_ text: String, label: String? = nil) throws(UsageError) -> String {
        try reader.resolve(text, for: label ?? flag)
    }

    /// `invalid value 'x' for '--flag': expected …`, the usual usage error.
    func invalid(_ text: String?, expected: String) -> UsageError {
        UsageError("invalid value " + (text.map { "'\($0)' " } ?? "") + "for '\(flag)': expected \(expected)")
    }
}
