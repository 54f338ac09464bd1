import Core
import OAuth

/// Every way a batch (`--users`, Batch/) refuses its input, a record, or its
/// own running; the CLI words each case (CLI/Errors/). Column and field
/// names are the file's; values are never carried (a CSV without a header
/// has a user's password for a name).
package enum BatchError: Error, Equatable, Sendable {
    /// The input cannot be opened.
    case unreadableInput(path: String, InputError)
    /// The input as a whole cannot be used; `at` names it.
    case input(RecordInputError, at: String)
    /// A CSV header holding another separator in this column (1-based).
    case separator(column: Int, CSVSeparator, at: String)
    /// A CSV whose first line reads like a user's values.
    case headerLooksLikeData(HeaderDataReason, at: String)
    /// The header or first record names a column or field like a
    /// parameter authcode sets (OAuth/ReservedParameter.swift).
    case reservedField(String, ReservedParameter, FieldKind, at: String)
    /// One record that cannot run: the reader's reason, nil when unknown.
    case badRecord(String?)
    /// One later JSON Lines record naming a reserved field.
    case badRecordField(String, ReservedParameter)
    /// No worker thread could start.
    case workersNotStarted(parallel: Int)
    /// The results could not be written: where, and how many were minted.
    case outputFailed(output: String, minted: Int)
    /// A login form asked for fields the record's did not fill: the form's
    /// names, the record's, and where.
    case unfilledByRecord(asked: [String], given: [String], FieldKind, at: String)
}

/// What the input calls a record's names.
package enum FieldKind: Equatable, Sendable {
    /// CSV.
    case column
    /// JSON Lines.
    case field
}

/// A separator that is not a comma.
package enum CSVSeparator: Equatable, Sendable {
    case semicolon, tab, bar
}

/// Why a CSV's first line reads like a user's values (columns 1-based).
package enum HeaderDataReason: Equatable, Sendable {
    case emailAddress(column: Int)
    case unusualCharacters(column: Int)
    case namedLikeValue(column: Int)
}
