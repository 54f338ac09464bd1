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
    /// The line of the input it starts on, 1-based: a CSV header is line 1,
    /// blank lines count (an error line names where to look in the file).
    package let fileLine: Int

    package init(number: Int, content: Content, fileLine: Int = 0) {
        self.number = number
        self.content = content
        self.fileLine = fileLine
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
