/// A CBOR data item (RFC 8949) of the kinds WebAuthn's attestation object
/// and a COSE_Key need (WebAuthn Level 3 §6.5, RFC 9052 §7): integers, byte
/// and text strings, arrays and maps. Only written, never read: authcode is
/// the authenticator, and the relying party parses what it makes.
///
/// `encoded` is the CTAP2 canonical form WebAuthn asks for (its §6.5.1):
/// every integer and length in its shortest head (RFC 8949 §4.2.1),
/// definite lengths only, and map keys sorted — lower major type first,
/// then shorter encoded key, then bytewise lower. A map is a dictionary, so
/// it never holds one key twice.
package indirect enum CBOR: Hashable, Sendable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n`, so every value down to -2⁶⁴ fits.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3: UTF-8.
    case text(String)
    /// Major type 4.
    case array([CBOR])
    /// Major type 5.
    case map([CBOR: CBOR])

    /// A signed integer as major type 0 or 1 (COSE labels and algorithm
    /// identifiers are small negative numbers: alg -7, x -2).
    package static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    package var encoded: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    private var majorType: UInt8 {
        switch self {
        case .unsigned: 0
        case .negative: 1
        case .bytes: 2
        case .text: 3
        case .array: 4
        case .map: 5
        }
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .unsigned(let value), .negative(let value):
            Self.head(majorType, value, into: &out)
        case .bytes(let bytes):
            Self.head(majorType, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            Self.head(majorType, UInt64(text.utf8.count), into: &out)
            out += Array(text.utf8)
        case .array(let items):
            Self.head(majorType, UInt64(items.count), into: &out)
            for item in items { item.append(to: &out) }
        case .map(let members):
            Self.head(majorType, UInt64(members.count), into: &out)
            let sorted = members.map { (key: $0.key.encoded, value: $0.value) }.sorted { Self.precedes($0.key, $1.key) }
            for member in sorted {
                out += member.key
                member.value.append(to: &out)
            }
        }
    }

    /// The key order of CTAP2's canonical form (the form WebAuthn Level 3
    /// §6.5.1 names): lower major type first, then the shorter encoded key,
    /// then bytewise. Neither RFC 8949 order is it: §4.2.1 (bytes alone) puts
    /// `[100]` before `[-1]`, §4.2.3 (length first) puts `-1` before `100`.
    private static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let (typeA, typeB) = (a[0] >> 5, b[0] >> 5)
        if typeA != typeB { return typeA < typeB }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// The initial byte and the argument in its shortest form (RFC 8949
    /// §3: values under 24 in the initial byte, then 1, 2, 4 or 8 bytes).
    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xFF: out += [type | 24, UInt8(value)]
        case 0x100...0xFFFF: out += [type | 25] + bigEndian(value, bytes: 2)
        case 0x1_0000...0xFFFF_FFFF: out += [type | 26] + bigEndian(value, bytes: 4)
        default: out += [type | 27] + bigEndian(value, bytes: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
