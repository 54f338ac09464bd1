/// base64url without padding (RFC 4648 §5), as PKCE (RFC 7636 App. A) and
/// JWTs use it; and plain base64 with padding for HTTP Basic.
package enum Base64URL {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlSafe, pad: false)
    }

    package static func encodeStandard(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standard, pad: true)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            let available = min(3, bytes.count - index)
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            if available > 1 { out.append(alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)]) } else if pad { out.append(UInt8(ascii: "=")) }
            if available > 2 { out.append(alphabet[Int(b2 & 0x3F)]) } else if pad { out.append(UInt8(ascii: "=")) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url, padded or not; also accepts the standard alphabet,
    /// since some servers mix them up in JWTs. Nil on any other byte.
    package static func decode(_ text: Substring) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            let v = Array(chunk) + [UInt8](repeating: 0, count: 4 - chunk.count)
            out.append(v[0] << 2 | v[1] >> 4)
            if chunk.count > 2 { out.append((v[1] & 0x0F) << 4 | v[2] >> 2) }
            if chunk.count > 3 { out.append((v[2] & 0x03) << 6 | v[3]) }
            index += 4
        }
        return out
    }
}
