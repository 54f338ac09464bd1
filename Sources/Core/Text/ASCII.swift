/// The ASCII bytes that delimit URIs and forms, and helpers to work on UTF-8
/// bytes. Protocol syntax is split on bytes, never on Swift Characters: a
/// Character is a grapheme cluster, so "\r\n" or "?" followed by a combining
/// mark is one Character and the delimiter inside it would go unseen.
package enum ASCII {
    package static let hash = UInt8(ascii: "#")
    package static let question = UInt8(ascii: "?")
    package static let colon = UInt8(ascii: ":")
    package static let slash = UInt8(ascii: "/")
    package static let at = UInt8(ascii: "@")
    package static let dot = UInt8(ascii: ".")
    package static let ampersand = UInt8(ascii: "&")
    package static let equals = UInt8(ascii: "=")
    package static let openBracket = UInt8(ascii: "[")
    package static let closeBracket = UInt8(ascii: "]")

    /// Bytes cut at ASCII delimiters from valid UTF-8 are valid UTF-8 again.
    package static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }

    package static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    package static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    package static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == dot
    }

    /// Whether `needle`'s UTF-8 bytes occur in `text`'s. Bytes, not
    /// Characters: the standard library's `contains` compares grapheme
    /// clusters and costs far more on the hot paths (names, escapes).
    package static func contains(_ text: String, bytes needle: String) -> Bool {
        let hay = Array(text.utf8), pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        guard hay.count >= pattern.count else { return false }
        for start in 0...(hay.count - pattern.count) where hay[start] == first {
            if hay[start..<start + pattern.count].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// The text before the first `separator` byte, or all of it.
    package static func prefix(_ text: String, before separator: UInt8) -> String {
        let bytes = Array(text.utf8)
        guard let index = bytes.firstIndex(of: separator) else { return text }
        return string(bytes[..<index])
    }
}
