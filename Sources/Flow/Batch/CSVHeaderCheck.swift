import Core

/// A CSV whose first line cannot be the header it must be (RFC 4180 §2.3:
/// the header names the form fields each column fills): a file with no
/// header row, whose first user became the "names", or one separated by
/// `;` or tabs, read as one column. Either would send every record to the
/// server to fail as a login form nothing fills; both are exit 2 before
/// any request. The names are never quoted: in a file with no header they
/// are a user's values, a password among them.
enum CSVHeaderCheck {
    static let separatorHint = "Separate the columns with commas, e.g. a first line \"username,password\"; quote a value that holds a comma."
    static let headerHint = "Add a header row naming the login form's fields as the file's first line, e.g. \"username,password\"."

    /// `columns` is the header; `first` the first record's fields, nil when
    /// there is none or it is a bad one.
    static func check(columns: [String], first: [NameValue]?, input: String) throws(Failure) {
        for (index, name) in columns.enumerated() {
            if let separator = separators.first(where: { name.unicodeScalars.contains($0.scalar) }) {
                throw Failure(.usage, "column \(index + 1) of the CSV header holds \(separator.name): columns must be separated by commas",
                              at: input, hint: separatorHint)
            }
        }
        if let reason = dataReason(columns: columns, first: first) {
            throw Failure(.usage, "the CSV's first line looks like a user's values, not a header row: \(reason)", at: input, hint: headerHint)
        }
    }

    private static func dataReason(columns: [String], first: [NameValue]?) -> String? {
        for (index, name) in columns.enumerated() {
            if name.contains("@") { return "column \(index + 1) holds an e-mail address" }
            if name.unicodeScalars.contains(where: { !isNameScalar($0) }) {
                return "column \(index + 1) holds characters no form field name has"
            }
        }
        for (index, field) in (first ?? []).enumerated() where likeValue(field.name, field.value) {
            return "column \(index + 1) is named like the value below it"
        }
        return nil
    }

    private static let separators: [(scalar: Unicode.Scalar, name: String)] = [(";", "';'"), ("\t", "a tab"), ("|", "'|'")]

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
