import Core
import OAuth

/// `--users` fields become `--form` values, so a column named like a
/// parameter authcode sets itself (`state`, `scope`, `client_id`…,
/// OAuth/ReservedParameter.swift) would send that parameter twice, as the
/// same `--form` would. A CSV header names every record's columns, and the
/// first JSON Lines object is read before any request too: either is
/// refused before any request. A later JSON Lines object with such a field
/// fails alone, like any bad record, and never reaches the server.
enum ReservedColumns {
    /// The first record, checked before discovery.
    static func checkFirst(_ record: Record?, format: RecordReader.Format?, input: String) throws(BatchError) {
        guard let fields = record?.fields, let (name, reserved) = refusal(fields) else { return }
        throw .reservedField(name, reserved, format == .jsonLines ? .field : .column, at: input)
    }

    /// The field that keeps this record from running, and why; nil when it can run.
    static func refusal(_ fields: [NameValue]) -> (String, ReservedParameter)? {
        for field in fields {
            if let reserved = ReservedParameter.instead(of: field.name) { return (field.name, reserved) }
        }
        return nil
    }
}
