/// base32 decoding (RFC 4648 §6), for TOTP seeds. Lenient where people are
/// when they paste a seed from a setup page: any letter case, spaces and
/// line breaks anywhere ("JBSW Y3DP…"), and `=` padding optional. Strict
/// about everything else, so a mistyped seed is refused rather than turned
/// into codes that never match.
package enum Base32 {
    /// The bytes of `text`, or nil for a character outside the alphabet, data
    /// after padding, or a length no encoder produces (RFC 4648 §6: the last
    /// quantum holds 2, 4, 5 or 7 characters, never 1, 3 or 6).
    package static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padded = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "="):
                padded = true
            case _ where padded:
                return nil
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                values.append(byte - UInt8(ascii: "a"))
            case UInt8(ascii: "2")...UInt8(ascii: "7"):
                values.append(byte - UInt8(ascii: "2") + 26)
            default:
                return nil
            }
        }
        guard ![1, 3, 6].contains(values.count % 8) else { return nil }
        // Five bits per character, most significant first (RFC 4648 §6);
        // leftover bits of the last quantum are padding and dropped.
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for value in values {
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }
}
