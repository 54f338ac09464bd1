import Core

/// Values a sign-in page's inline script holds, read without running it:
/// a string literal after a marker (`var stateToken = '…'`, Okta's
/// JavaScript-escaped `"stateToken":"…"`, Lock's `window.atob('…')`), or a
/// JSON object after one (Entra's `$Config={…};`). Drivers read only these
/// few values; nothing of a script is ever quoted in an error line (it may
/// hold CSRF values and flow tokens).
package enum ScriptValues {
    /// The string literal that follows the first `marker` (which ends where
    /// the literal's opening quote is expected, spaces allowed), decoded as
    /// JavaScript decodes it (ECMA-262 §12.9.4: `\xHH`, `\uHHHH`, `\u{…}`,
    /// the single-character escapes). Nil without one.
    package static func string(after marker: String, in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let start = find(Array(marker.utf8), in: bytes, from: 0) else { return nil }
        var index = skipSpaces(bytes, from: start)
        guard index < bytes.count, bytes[index] == doubleQuote || bytes[index] == apostrophe else { return nil }
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            if byte == newline { return nil }  // a string literal never spans lines
            guard byte == backslash else {
                out.append(byte)
                index += 1
                continue
            }
            guard let (scalar, next) = escape(bytes, at: index + 1) else { return nil }
            out.append(contentsOf: Array(String(scalar).utf8))
            index = next
        }
        return nil
    }

    /// The JSON object that starts right after the first `marker` (spaces
    /// allowed), up to its matching `}` — braces inside strings do not
    /// count — parsed by Core's JSON parser. Nil when there is none or it is
    /// not JSON.
    package static func object(after marker: String, in text: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        guard let start = find(Array(marker.utf8), in: bytes, from: 0) else { return nil }
        let open = skipSpaces(bytes, from: start)
        guard open < bytes.count, bytes[open] == openBrace else { return nil }
        var depth = 0
        var inString = false
        var index = open
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == backslash { index += 1 } else if byte == doubleQuote { inString = false }
            } else if byte == doubleQuote {
                inString = true
            } else if byte == openBrace {
                depth += 1
            } else if byte == closeBrace {
                depth -= 1
                if depth == 0 {
                    guard let value = JSONValue.parse(Array(bytes[open...index])), case .object = value else { return nil }
                    return value
                }
            }
            index += 1
        }
        return nil
    }

    /// Whether `text` holds `marker` (bytes, case-sensitive): the cheap
    /// test recognition runs on every page.
    package static func contains(_ marker: String, in text: String) -> Bool {
        ASCII.contains(text, bytes: marker)
    }

    private static let apostrophe = UInt8(ascii: "'")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let newline = UInt8(ascii: "\n")
    private static let backslash = UInt8(ascii: "\\")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")

    /// The index just past the first occurrence of `needle`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return nil
    }

    private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        return index
    }

    /// One escape sequence after its backslash: the scalar and the index
    /// after it. A lone surrogate becomes U+FFFD, as a decoder would show it.
    private static func escape(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "n"): return ("\n", index + 1)
        case UInt8(ascii: "t"): return ("\t", index + 1)
        case UInt8(ascii: "r"): return ("\r", index + 1)
        case UInt8(ascii: "b"): return ("\u{08}", index + 1)
        case UInt8(ascii: "f"): return ("\u{0C}", index + 1)
        case UInt8(ascii: "v"): return ("\u{0B}", index + 1)
        case UInt8(ascii: "0"): return ("\u{00}", index + 1)
        case UInt8(ascii: "x"):
            guard let value = hex(bytes, from: index + 1, count: 2) else { return nil }
            return (Unicode.Scalar(UInt8(value)), index + 3)
        case UInt8(ascii: "u"):
            if index + 1 < bytes.count, bytes[index + 1] == openBrace {
                guard let close = bytes[(index + 2)...].firstIndex(of: closeBrace), close - index - 2 <= 6,
                      let value = hex(bytes, from: index + 2, count: close - index - 2) else { return nil }
                return (Unicode.Scalar(value) ?? "\u{FFFD}", close + 1)
            }
            guard let value = hex(bytes, from: index + 1, count: 4) else { return nil }
            if (0xD800...0xDBFF).contains(value), index + 11 <= bytes.count, bytes[index + 5] == backslash, bytes[index + 6] == UInt8(ascii: "u"),
               let low = hex(bytes, from: index + 7, count: 4), (0xDC00...0xDFFF).contains(low) {
                let combined = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                return (Unicode.Scalar(combined) ?? "\u{FFFD}", index + 11)
            }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", index + 5)
        case newline:
            return nil  // a line continuation: not in the values drivers read
        default:
            // `\'`, `\"`, `\\`, `\/` and every other character stand for themselves.
            let scalarBytes = utf8Sequence(bytes, at: index)
            let text = String(decoding: scalarBytes, as: UTF8.self)
            guard let scalar = text.unicodeScalars.first else { return nil }
            return (scalar, index + scalarBytes.count)
        }
    }

    /// The bytes of the UTF-8 sequence starting at `index`.
    private static func utf8Sequence(_ bytes: [UInt8], at index: Int) -> ArraySlice<UInt8> {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes[index..<min(index + length, bytes.count)]
    }

    private static func hex(_ bytes: [UInt8], from start: Int, count: Int) -> UInt32? {
        guard count > 0, start + count <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + count)] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
