import Core

/// base64url as JWS and JWK require it (RFC 7515 §2, RFC 7517): the URL-safe
/// alphabet only, no padding, no white space, and the unused low bits of the
/// last character zero. Core's `Base64URL.decode` is lenient on purpose (it
/// reads what servers send in other places); here one signature must have
/// one spelling, so a token altered in its last character's spare bits is
/// not the same token.
package enum StrictBase64URL {
    package static func decode(_ text: Substring) -> [UInt8]? {
        decode(text.utf8)
    }

    package static func decode(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var last: UInt8 = 0
        for byte in bytes {
            guard let value = sextet(byte) else { return nil }
            last = value
        }
        // RFC 4648 §5 without padding: 4n, 4n+2 or 4n+3 characters; in the
        // last two cases the final character carries 4 or 2 unused bits.
        switch bytes.count % 4 {
        case 1: return nil
        case 2 where last & 0x0F != 0: return nil
        case 3 where last & 0x03 != 0: return nil
        default: break
        }
        return Base64URL.decode(bytes)
    }

    package static func encode(_ bytes: [UInt8]) -> String {
        Base64URL.encode(bytes)
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
