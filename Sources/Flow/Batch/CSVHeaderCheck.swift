import Core

/// A CSV whose first line cannot be the header it must be (RFC 4180 §2.3:
/// the header names the form fields each column fills): a file with no
/// header row, whose first user became the "names", or one separated by
/// `;` or tabs, read as one column. Either would send every record to the
/// server to fail as a login form nothing fills; both are refused before
/// any request. The names are never quoted: in a file with no header they
/// are a user's values, a password among them.
enum CSVHeaderCheck {
    /// `columns` is the header; `first` the first record's fields, nil when
    /// there is none or it is a bad one.
    static func check(columns: [String], first: [NameValue]?, input: String) throws(BatchError) {
        for (index, name) in columns.enumerated() {
            if let separator = separators.first(where: { name.unicodeScalars.contains($0.scalar) }) {
                throw .separator(column: index + 1, separator.separator, at: input)
            }
        }
        if let reason = dataReason(columns: columns, first: first) {
            throw .headerLooksLikeData(reason, at: input)
        }
    }

    private static func dataReason(columns: [String], first: [NameValue]?) -> HeaderDataReason? {
        for (index, name) in columns.enumerated() {
            if name.contains("@") { return .emailAddress(column: index + 1) }
            if name.unicodeScalars.contains(where: { !isNameScalar($0) }) {
                return .unusualCharacters(column: index + 1)
            }
        }
        for (index, field) in (first ?? []).enumerated() where likeValue(field.name, field.value) {
            return .namedLikeValue(column: index + 1)
        }
        return nil
    }

    private static let separators: [(scalar: Unicode.Scalar, separator: CSVSeparator)] = [(";", .semicolon), ("\t", .tab), ("|", .bar)]

    /// Letters, digits, space, and the punctuation field names use:
    /// `user[login]` (Rails), `j_username`, `form:password` (JSF),
    /// `ctl00$Main$UserName` (ASP.NET), `user.email`, `pass-word`.
    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return true }
        return " _-.:[]$".unicodeScalars.contains(scalar)
    }

    /// The name is a value: equal to the one below it, or the same but for
    /// its digits (`user1` over `user2`, `pw-1` over `pw-2`).
    private static func likeValue(_ name: String, _ value: String) -> Bool {
        if name == value { return true }
        let digits = { (text: String) in text.unicodeScalars.contains { ("0"..."9").contains($0) } }
        guard digits(name), digits(value) else { return false }
        let letters = { (text: String) in String(String.UnicodeScalarView(text.unicodeScalars.filter { !("0"..."9").contains($0) })) }
        let stem = letters(name)
        return !stem.isEmpty && stem == letters(value)
    }
}
