import Core

/// The words of Core's own errors: an unreadable input, an unusable batch
/// input. The caller names the option and the path.
extension InputError {
    var text: String {
        switch self {
        case .notFound: "no such file"
        case .permissionDenied: "permission denied"
        case .directory: "it is a directory"
        case .silent(let seconds): "nothing arrived within \(SystemClock.describe(seconds: seconds)) (\(OptionTable.flag(\.flow.connection.transport.timeout))); is a writer missing?"
        case .tooLarge: "too large"
        case .system(let text): text
        }
    }
}

extension RecordInputError {
    var text: String {
        switch self {
        case .noRecords: "no records"
        case .noColumns: "the CSV header has no columns"
        case .emptyColumnName(let column): "the CSV header has no name for column \(column)"
        case .duplicateColumnName(let name): "the CSV header names column \(JSONText.quote(name)) more than once"
        case .badHeader(let reason): "the CSV header is unreadable: \(reason)"
        case .readFailed(let error): "cannot read the input: \(error.text)"
        }
    }
}
