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
        var out = ByteCollector(capacity: (bytes.count + 2) / 3 * 4)
        encode(bytes, alphabet: alphabet, pad: pad, into: &out)
        return out.string
    }

    /// The same encodings written into a sink (RFC 4648 §4 with `standard`,
    /// else §5), for a secret's echo forms (Redaction/EchoForm.swift).
    package static func encode<Bytes: Collection<UInt8>, Sink: ByteSink>(_ bytes: Bytes, standard: Bool, pad: Bool, into sink: inout Sink) {
        encode(bytes, alphabet: standard ? Self.standard : urlSafe, pad: pad, into: &sink)
    }

    private static func encode<Bytes: Collection<UInt8>, Sink: ByteSink>(_ bytes: Bytes, alphabet: [UInt8], pad: Bool, into sink: inout Sink) {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let b0 = bytes[index]
            index = bytes.index(after: index)
            let b1: UInt8? = index == bytes.endIndex ? nil : bytes[index]
            if b1 != nil { index = bytes.index(after: index) }
            let b2: UInt8? = b1 == nil || index == bytes.endIndex ? nil : bytes[index]
            if b2 != nil { index = bytes.index(after: index) }
            sink.put(alphabet[Int(b0 >> 2)])
            sink.put(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { sink.put(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) } else if pad { sink.put(UInt8(ascii: "=")) }
            if let b2 { sink.put(alphabet[Int(b2 & 0x3F)]) } else if pad { sink.put(UInt8(ascii: "=")) }
        }
    }

    /// Decodes base64url, padded or not; also accepts the standard alphabet,
    /// since some servers mix them up in JWTs. Nil on any other byte.
    package static func decode(_ text: Substring) -> [UInt8]? {
        decode(text.utf8)
    }

    /// The same over bytes, in one pass: no copy of the input is made, so
    /// a 3 MB token costs its decoded bytes only (README "Security").
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var bits: UInt32 = 0
        var sextets = 0
        for byte in bytes {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            bits = bits << 6 | UInt32(value)
            sextets += 1
            if sextets == 4 {
                out.append(UInt8(truncatingIfNeeded: bits >> 16))
                out.append(UInt8(truncatingIfNeeded: bits >> 8))
                out.append(UInt8(truncatingIfNeeded: bits))
                bits = 0
                sextets = 0
            }
        }
        // A last group of 2 or 3 sextets carries 1 or 2 bytes; 1 is none.
        switch sextets {
        case 1: return nil
        case 2: out.append(UInt8(truncatingIfNeeded: bits >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: bits >> 10))
            out.append(UInt8(truncatingIfNeeded: bits >> 2))
        default: break
        }
        return out
    }
}
