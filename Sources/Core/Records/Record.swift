/// One record of batch input: its fields in input order, or why it cannot
/// be used. A bad record fails alone; the records after it still run.
package struct Record: Equatable, Sendable {
    package enum Content: Equatable, Sendable {
        case fields([NameValue])
        case error(String)
    }

    /// 1 for the first record. A CSV header is not a record; blank lines
    /// are skipped and not counted; a bad record counts.
    package let number: Int
    package let content: Content

    package init(number: Int, content: Content) {
        self.number = number
        self.content = content
    }

    package var fields: [NameValue]? {
        if case .fields(let fields) = content { return fields }
        return nil
    }

    package var error: String? {
        if case .error(let message) = content { return message }
        return nil
    }
}
