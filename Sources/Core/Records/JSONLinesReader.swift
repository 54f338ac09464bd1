/// Reads JSON Lines: one JSON text per line (RFC 8259 §2), here a flat
/// object whose values are all strings. Lines are read whole, up to a
/// limit, then parsed by `JSONParser`; the members' order, which
/// `JSONValue.object` does not keep, is read from the line itself.
struct JSONLinesReader {
    enum Line: Equatable {
        case fields([NameValue])
        case blank
        case error(String)
    }

    let maxRecordBytes: Int

    /// The next line, or nil at the end of input.
    func read(from stream: inout ByteStream) throws(RecordInputError) -> Line? {
        guard try stream.peek() != nil else { return nil }
        var line: [UInt8] = []
        while let byte = try stream.next(), byte != UInt8(ascii: "\n") {
            guard line.count < maxRecordBytes else {
                while let byte = try stream.next(), byte != UInt8(ascii: "\n") {}
                return .error("record is longer than \(maxRecordBytes) bytes")
            }
            line.append(byte)
        }
        guard line.contains(where: { !Self.isBlank($0) }) else { return .blank }
        return Self.record(line)
    }

    static func record(_ line: [UInt8]) -> Line {
        guard String(validating: line, as: UTF8.self) != nil else { return .error("record is not valid UTF-8") }
        guard let value = JSONParser.parse(line) else { return .error("record is not valid JSON") }
        guard case .object(let members) = value else { return .error("record is not a JSON object") }
        var fields: [NameValue] = []
        var seen: Set<String> = []
        for name in memberNames(line) {
            guard seen.insert(name).inserted else { return .error("field \(JSONText.quote(name)) appears more than once") }
            guard case .string(let text) = members[name] else {
                return .error("field \(JSONText.quote(name)) is \(kind(members[name])), not a string")
            }
            fields.append(NameValue(name, text))
        }
        return .fields(fields)
    }

    /// The top-level member names of a line already known to be a valid JSON
    /// object, in order: each string that follows `{` or `,` at depth 1.
    private static func memberNames(_ line: [UInt8]) -> [String] {
        var names: [String] = []
        var depth = 0
        var expectingName = false
        var index = 0
        while index < line.count {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while line[index] != UInt8(ascii: "\"") { index += line[index] == UInt8(ascii: "\\") ? 2 : 1 }
                if depth == 1, expectingName, case .string(let name)? = JSONParser.parse(Array(line[start...index])) {
                    names.append(name)
                }
                expectingName = false
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingName = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingName = depth == 1
            default:
                break
            }
            index += 1
        }
        return names
    }

    private static func kind(_ value: JSONValue?) -> String {
        switch value {
        case .number: "a number"
        case .bool: "a boolean"
        case .null, nil: "null"
        case .array: "an array"
        case .object: "an object"
        case .string: "a string"
        }
    }

    /// JSON white space (RFC 8259 §2); a CR before the LF is one of them.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
