import Core

/// One answer of authentik's flow executor: a challenge named by its
/// `component` (the API schema's ChallengeTypes), with the errors of the
/// response it refused (`response_errors`: field → [{string, code}]).
struct AuthentikChallenge {
    let fields: [String: JSONValue]

    var component: String { fields["component"]?.stringValue ?? "" }

    subscript(_ name: String) -> JSONValue? { fields[name] }

    /// The texts of `response_errors`, non-field errors first, in field order.
    var errorTexts: [String] {
        guard case .object(let errors)? = fields["response_errors"] else { return [] }
        let order = errors.keys.sorted { ($0 == "non_field_errors" ? "" : $0) < ($1 == "non_field_errors" ? "" : $1) }
        return order.flatMap { key -> [String] in
            guard case .array(let items)? = errors[key] else { return [] }
            return items.compactMap { $0["string"]?.stringValue }
        }
    }

    /// `device_challenges` of the authenticator validation stage, as sent.
    var deviceChallenges: [JSONValue] {
        if case .array(let items)? = fields["device_challenges"] { return items }
        return []
    }
}
