/// Reads CSV records (RFC 4180 §2) from a `ByteStream`: fields split on
/// commas, optionally in double quotes with `""` for a quote, where commas
/// and line breaks are data. Lines end in CRLF or LF.
///
/// Two things RFC 4180 forbids are read leniently since they are not
/// ambiguous: a quote inside an unquoted field (`pa"ss`) is data, and a CR
/// not followed by LF is data. Text between a closing quote and the next
/// comma is refused: whether it belongs to the field cannot be told.
struct CSVLineReader {
    enum Line: Equatable {
        case fields([[UInt8]])
        case blank
        case error(String)
    }

    let maxRecordBytes: Int

    /// The next line, or nil at the end of input.
    func read(from stream: inout ByteStream) throws(RecordInputError) -> Line? {
        guard try stream.peek() != nil else { return nil }
        if try atLineEnd(&stream) { return .blank }
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var size = 0
        func append(_ byte: UInt8) -> Bool {
            size += 1
            field.append(byte)
            return size <= maxRecordBytes
        }
        while true {
            if try stream.peek() == quote {
                _ = try stream.next()
                while true {
                    guard let byte = try stream.next() else { return .error("a quoted field has no closing quote") }
                    if byte == quote {
                        guard try stream.peek() == quote else { break }
                        _ = try stream.next()
                    }
                    guard append(byte) else { return try tooLong(&stream) }
                }
                if try atLineEnd(&stream) {
                    fields.append(field)
                    return .fields(fields)
                }
                let following = try stream.peek()
                guard following == nil || following == comma else {
                    try skipLine(&stream)
                    return .error("field \(fields.count + 1) has text after its closing quote")
                }
            }
            while let byte = try stream.peek(), byte != comma {
                if try atLineEnd(&stream) {
                    fields.append(field)
                    return .fields(fields)
                }
                _ = try stream.next()
                guard append(byte) else { return try tooLong(&stream) }
            }
            fields.append(field)
            field = []
            guard try stream.next() == comma else { return .fields(fields) }  // end of input
            // Separators count too: a line of commas must not grow without bound.
            size += 1
            guard size <= maxRecordBytes else { return try tooLong(&stream) }
        }
    }

    /// Consumes LF or CRLF if next; a lone CR is left as data.
    private func atLineEnd(_ stream: inout ByteStream) throws(RecordInputError) -> Bool {
        switch try stream.peek() {
        case lf:
            _ = try stream.next()
            return true
        case cr:
            _ = try stream.next()
            if try stream.peek() == lf {
                _ = try stream.next()
                return true
            }
            stream.pushBack([cr])
            return false
        default:
            return false
        }
    }

    /// After an oversized record, resume at the next line: inside quotes
    /// that may be mid-record, but no guess is better bounded than this.
    private func tooLong(_ stream: inout ByteStream) throws(RecordInputError) -> Line {
        try skipLine(&stream)
        return .error("record is longer than \(maxRecordBytes) bytes")
    }

    private func skipLine(_ stream: inout ByteStream) throws(RecordInputError) {
        while let byte = try stream.next(), byte != lf {}
    }

    private let quote = UInt8(ascii: "\"")
    private let comma = UInt8(ascii: ",")
    private let cr = UInt8(ascii: "\r")
    private let lf = UInt8(ascii: "\n")
}
