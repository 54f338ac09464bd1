import Core
import OAuth

/// `--users` fields become `--form` values, so a column named like a
/// parameter authcode sets itself (`state`, `scope`, `client_id`…,
/// OAuth/ReservedParameter.swift) would send that parameter twice, as the
/// same `--form` would. A CSV header names every record's columns, and the
/// first JSON Lines object is read before any request too: either is exit 2
/// before any request. A later JSON Lines object with such a field fails
/// alone (exit 2), like any bad record, and never reaches the server.
enum ReservedColumns {
    /// The first record, checked before discovery.
    static func checkFirst(_ record: Record?, format: RecordReader.Format?, input: String) throws(Failure) {
        guard let fields = record?.fields, let message = refusal(fields, format: format) else { return }
        throw Failure(.usage, message, at: input)
    }

    /// Why this record cannot run, nil when it can.
    static func refusal(_ fields: [NameValue], format: RecordReader.Format?) -> String? {
        for field in fields {
            if let reason = ReservedParameter.reason(field.name) {
                let kind = format == .jsonLines ? "field" : "column"
                return "the --users \(kind) \(JSONText.quote(field.name)) is not allowed: \(reason)"
            }
        }
        return nil
    }
}
