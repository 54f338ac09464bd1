/// Batch input that cannot be used at all (as opposed to one bad record,
/// `Record.Content.error`): nothing is sent to any server. The CLI words it.
package enum RecordInputError: Error, Equatable, Sendable {
    /// Empty input, blank lines only, or a CSV header and nothing after it.
    case noRecords
    case noColumns
    /// 1-based.
    case emptyColumnName(column: Int)
    case duplicateColumnName(String)
    /// The header line itself is unreadable (same reasons as a bad record).
    case badHeader(String)
    case readFailed(InputError)
}
