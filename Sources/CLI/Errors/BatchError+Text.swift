import Core
import OAuth
import Flow

/// The words of a batch error (Flow/Errors/BatchError.swift); the exit code
/// and hint are ErrorReport.swift's.
extension BatchError {
    var text: ErrorText {
        switch self {
        case .unreadableInput(let path, let error):
            ErrorText("cannot read '\(path)' for '\(OptionTable.flag(\.batch.input))': \(error.text)")
        case .input(let error, let input):
            ErrorText(error.text, at: input)
        case .separator(let column, let separator, let input):
            ErrorText("column \(column) of the CSV header holds \(Self.describe(separator)): columns must be separated by commas", at: input)
        case .headerLooksLikeData(let reason, let input):
            ErrorText("the CSV's first line looks like a user's values, not a header row: \(Self.describe(reason))", at: input)
        case .reservedField(let name, let reserved, let kind, let input):
            ErrorText(Self.reserved(name, reserved, kind), at: input)
        case .badRecord(let reason):
            ErrorText("bad record: \(reason ?? "unreadable")")
        case .badRecordField(let name, let reserved):
            ErrorText("bad record: " + Self.reserved(name, reserved, .field))
        case .workersNotStarted(let parallel):
            ErrorText("cannot start worker threads for \(OptionTable.flag(\.batch.parallel)) \(parallel)")
        case .outputFailed(let output, let minted):
            ErrorText("could not write the results to \(output); \(minted) records were minted")
        case .unfilledByRecord(let asked, let given, let kind, let place):
            ErrorText("the login page asks for \(asked.map { ServerText.printable($0) }.joined(separator: ", ")), which the record's "
                      + "\(kind == .field ? "fields" : "columns") (\(given.map { ServerText.printable($0) }.joined(separator: ", "))) do not fill",
                      at: place)
        }
    }

    static func reserved(_ name: String, _ reserved: ReservedParameter, _ kind: FieldKind) -> String {
        "the \(OptionTable.flag(\.batch.input)) \(kind == .field ? "field" : "column") \(JSONText.quote(name)) is not allowed: \(reserved.reason(name))"
    }

    static func describe(_ separator: CSVSeparator) -> String {
        switch separator {
        case .semicolon: "';'"
        case .tab: "a tab"
        case .bar: "'|'"
        }
    }

    static func describe(_ reason: HeaderDataReason) -> String {
        switch reason {
        case .emailAddress(let column): "column \(column) holds an e-mail address"
        case .unusualCharacters(let column): "column \(column) holds characters no form field name has"
        case .namedLikeValue(let column): "column \(column) is named like the value below it"
        }
    }
}
