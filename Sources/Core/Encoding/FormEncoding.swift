/// `application/x-www-form-urlencoded` as the WHATWG URL standard defines it,
/// which is also what RFC 6749 §2.3.1 asks for in client_secret_basic.
package enum FormEncoding {
    /// Bytes left as they are; everything else is %XX, and space becomes `+`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes one name or value.
    package static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else if byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes pairs in order: `a=1&b=2`.
    package static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes one component: `+` is a space, `%XX` a byte; a `%` not followed
    /// by two hex digits stays as it is (as browsers do). Invalid UTF-8 is
    /// repaired with U+FFFD rather than refused.
    package static func unescape(_ text: Substring) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `a=1&b=2` into ordered pairs; empty pieces are skipped, a piece
    /// without `=` is a name with an empty value. Duplicates are kept so callers
    /// can reject them where the protocol forbids them (RFC 6749 §3.1).
    /// Split on `&` and `=` bytes: as Characters, a delimiter followed by a
    /// combining mark would go unseen (see ASCII).
    static func decode(_ text: Substring) -> [(String, String)] {
        Array(text.utf8).split(separator: ASCII.ampersand, omittingEmptySubsequences: true).map { piece in
            if let equals = piece.firstIndex(of: ASCII.equals) {
                return (unescape(Substring(ASCII.string(piece[..<equals]))), unescape(Substring(ASCII.string(piece[(equals + 1)...]))))
            }
            return (unescape(Substring(ASCII.string(piece))), "")
        }
    }

    package static func decode(_ text: String) -> [(String, String)] {
        decode(text[...])
    }

    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
