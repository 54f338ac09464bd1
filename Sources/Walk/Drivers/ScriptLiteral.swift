import Core

/// A value a login page writes into its script as a JavaScript literal
/// (ECMA-262 §13.2: object, array, string, numeric and the `true`,
/// `false`, `null` literals): Keycloakify's `kcContext`, the arguments of
/// Keycloak's WebAuthn scripts (`challenge : '…'`). Read as JSON values,
/// and leniently as a browser would take them: keys bare or quoted in
/// either quote, strings in either quote with JavaScript's escapes,
/// trailing commas, comments; a member whose value is anything else (a
/// function, a call, a variable) is skipped to the next comma and read as
/// null. Nothing is evaluated.
package struct ScriptLiteral {
    private let bytes: [UInt8]
    private var index: Int
    /// Nesting deeper than this is no configuration object.
    static let maxDepth = 64

    private init(_ bytes: [UInt8], at index: Int) {
        self.bytes = bytes
        self.index = index
    }

    /// The literal that starts at byte `offset` of `text` (after white
    /// space and comments), nil when none does.
    package static func value(in text: String, at offset: Int = 0) -> JSONValue? {
        var reader = ScriptLiteral(Array(text.utf8), at: offset)
        return reader.value(depth: 0)
    }

    /// The literal assigned to `name` — `name : literal`, `name = literal`
    /// (not `==`, not `=>`), or as a quoted key `"name": literal` — at its
    /// first place in `text` where one is; nil when there is none.
    /// `name` may be a member path (`kcContext.pageId`).
    package static func assigned(_ name: String, in text: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        let pattern = Array(name.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var start = 0
        while let found = find(pattern, in: bytes, from: start) {
            start = found + 1
            var quote: UInt8?
            if found > 0 {
                let before = bytes[found - 1]
                if isIdentifierByte(before) { continue }
                if before == dq || before == sq { quote = before }
            }
            var reader = ScriptLiteral(bytes, at: found + pattern.count)
            if let quote {
                guard reader.index < bytes.count, bytes[reader.index] == quote else { continue }
                reader.index += 1
            } else if reader.index < bytes.count, isIdentifierByte(bytes[reader.index]) {
                continue
            }
            reader.skipSpace()
            guard reader.index < bytes.count else { return nil }
            let sign = bytes[reader.index]
            guard sign == colon || sign == equals else { continue }
            if sign == equals, reader.index + 1 < bytes.count, [equals, gt].contains(bytes[reader.index + 1]) { continue }
            reader.index += 1
            if let value = reader.value(depth: 0) { return value }
        }
        return nil
    }

    // MARK: - Values

    private mutating func value(depth: Int) -> JSONValue? {
        guard depth < Self.maxDepth else { return nil }
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case dq, sq, UInt8(ascii: "`"): return string().map(JSONValue.string)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default:
            let word = identifier()
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "undefined": return .null
            default: return nil
            }
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1  // {
        var members: [String: JSONValue] = [:]
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            let key: String
            if bytes[index] == dq || bytes[index] == sq {
                guard let quoted = string() else { return nil }
                key = quoted
            } else {
                key = identifier()
                guard !key.isEmpty else { return nil }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == colon else { return nil }
            index += 1
            let memberValue = memberOrSkipped(depth: depth)
            guard let memberValue else { return nil }
            if members[key] == nil { members[key] = memberValue }
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == comma { index += 1 } else if bytes[index] != UInt8(ascii: "}") { return nil }
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1  // [
        var elements: [JSONValue] = []
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            guard let element = memberOrSkipped(depth: depth) else { return nil }
            elements.append(element)
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == comma { index += 1 } else if bytes[index] != UInt8(ascii: "]") { return nil }
        }
    }

    /// A member's literal, or null for an expression skipped to the next
    /// `,` or closing bracket of this level; nil when the text ends first.
    private mutating func memberOrSkipped(depth: Int) -> JSONValue? {
        let start = index
        if let literal = value(depth: depth) {
            skipSpace()
            if index < bytes.count, [comma, UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index]) { return literal }
        }
        index = start
        return skipExpression() ? .null : nil
    }

    /// Past an expression (a function with its body, a call), keeping to
    /// brackets and strings, up to the `,` `}` or `]` that ends it.
    private mutating func skipExpression() -> Bool {
        var nesting = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case dq, sq, UInt8(ascii: "`"):
                guard string() != nil else { return false }
                continue
            case UInt8(ascii: "/") where index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")):
                skipSpace()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                nesting += 1
                guard nesting < Self.maxDepth * 4 else { return false }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                if nesting == 0 { return true }
                nesting -= 1
            case comma where nesting == 0:
                return true
            default:
                break
            }
            index += 1
        }
        return false
    }

    /// A string in `"`, `'` or a template literal without substitutions,
    /// with JavaScript's escapes (ECMA-262 §12.9.4).
    private mutating func string() -> String? {
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if quote == UInt8(ascii: "`"), byte == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                return nil  // a substitution: not a literal
            }
            if quote != UInt8(ascii: "`"), byte == 0x0A || byte == 0x0D { return nil }
            guard byte == backslash else {
                out.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0"): out.append(0x00)
            case 0x0A: break  // a line continuation
            case 0x0D:
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            case UInt8(ascii: "x"):
                guard let value = hex(count: 2) else { return nil }
                append(scalar: value, to: &out)
            case UInt8(ascii: "u"):
                guard let value = unicodeEscape() else { return nil }
                append(scalar: value, to: &out)
            default:
                out.append(escaped)
            }
        }
        return nil
    }

    /// `\uXXXX` (a surrogate pair joined) or `\u{X…}`, after the `u`.
    private mutating func unicodeEscape() -> UInt32? {
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            index += 1
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                guard let digit = FormEncoding.hexValue(bytes[index]), digits < 6 else { return nil }
                value = value * 16 + UInt32(digit)
                digits += 1
                index += 1
            }
            guard index < bytes.count, digits > 0, value <= 0x10FFFF else { return nil }
            index += 1
            return value
        }
        guard let high = hex(count: 4) else { return nil }
        guard (0xD800...0xDBFF).contains(high), index + 5 < bytes.count, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
            return high
        }
        let mark = index
        index += 2
        guard let low = hex(count: 4), (0xDC00...0xDFFF).contains(low) else {
            index = mark
            return high
        }
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
    }

    private mutating func hex(count: Int) -> UInt32? {
        guard index + count <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let digit = FormEncoding.hexValue(bytes[index]) else { return nil }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private func append(scalar value: UInt32, to out: inout [UInt8]) {
        // A lone surrogate has no UTF-8 form: U+FFFD, as a decoder shows it.
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    /// A decimal number (hexadecimal and others are no configuration we read).
    private mutating func number() -> JSONValue? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }

    private mutating func identifier() -> String {
        let start = index
        while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// White space, line terminators and comments.
    private mutating func skipSpace() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, bytes.count)
            } else {
                return
            }
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, start + pattern.count <= bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private func isIdentifierByte(_ byte: UInt8) -> Bool { Self.isIdentifierByte(byte) }

    private func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }
}

private let dq = UInt8(ascii: "\"")
private let sq = UInt8(ascii: "'")
private let colon = UInt8(ascii: ":")
private let comma = UInt8(ascii: ",")
private let equals = UInt8(ascii: "=")
private let gt = UInt8(ascii: ">")
private let backslash = UInt8(ascii: "\\")
