/// Any JSON value, as read by `JSONParser`.
package enum JSONValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        JSONParser.parse(bytes)
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Numbers, and numbers sent as strings (`"expires_in": "3600"`, which
    /// some servers send).
    package var numberValue: Double? {
        switch self {
        case .number(let value): value
        case .string(let text): Double(text)
        default: nil
        }
    }
}

/// JSON string literal escaping (RFC 8259 §7) for the little JSON we write.
/// Besides what JSON requires, DEL, C1 controls and bidi overrides are
/// written as `\u` escapes too (TerminalText's set): the value is the same
/// to any parser, and a server's `iss` or code cannot act on a terminal
/// that shows `--print code`.
package enum JSONText {
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || TerminalText.containsControl(String(scalar)):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"a":"x","b":null}` from ordered pairs; nil values become null.
    package static func object(_ members: [(String, String?)]) -> String {
        "{" + members.map { "\(quote($0.0)):\($0.1.map(quote) ?? "null")" }.joined(separator: ",") + "}"
    }

    /// Any value as compact JSON text; object members sorted by name so the
    /// text is the same every time. A non-finite number (which the parser
    /// can produce from `1e999`) is written as null: JSON has no infinity.
    package static func serialize(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return quote(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .number(let number):
            guard number.isFinite else { return "null" }
            if number == number.rounded(), abs(number) < 9_007_199_254_740_992 { return String(Int64(number)) }
            return "\(number)"
        case .array(let items): return "[" + items.map(serialize).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { quote($0.key) + ":" + serialize($0.value) }.joined(separator: ",") + "}"
        }
    }
}
