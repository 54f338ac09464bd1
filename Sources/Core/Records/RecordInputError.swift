/// Batch input that cannot be used at all (as opposed to one bad record,
/// `Record.Content.error`): nothing is sent to any server.
package enum RecordInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty input, blank lines only, or a CSV header and nothing after it.
    case noRecords
    case noColumns
    /// 1-based.
    case emptyColumnName(column: Int)
    case duplicateColumnName(String)
    /// The header line itself is unreadable (same reasons as a bad record).
    case badHeader(String)
    case readFailed(String)

    package var description: String {
        switch self {
        case .noRecords: "no records"
        case .noColumns: "the CSV header has no columns"
        case .emptyColumnName(let column): "the CSV header has no name for column \(column)"
        case .duplicateColumnName(let name): "the CSV header names column \(JSONText.quote(name)) more than once"
        case .badHeader(let reason): "the CSV header is unreadable: \(reason)"
        case .readFailed(let reason): "cannot read the input: \(reason)"
        }
    }
}
