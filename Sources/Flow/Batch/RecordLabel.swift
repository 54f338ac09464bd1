import Core

/// The `user` of a batch output line: the record's first field named like a
/// user identifier, else its first field — never a value that is secret by
/// name — and null when there is none.
enum RecordLabel {
    static func user(_ fields: [NameValue]) -> String? {
        if let identity = fields.first(where: { IdentityField.isIdentity($0.name) }) { return identity.value }
        guard let first = fields.first, !Redactor.isSecretName(first.name) else { return nil }
        return first.value
    }
}
