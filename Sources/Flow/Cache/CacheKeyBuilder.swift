import Core

/// Builds a cache key from an ordered list of labelled components and
/// seals it with HMAC-SHA-256 (RFC 2104) under the cache's salt, so the
/// file name says nothing about the inputs to anyone without the salt.
///
/// The encoding is unambiguous: every label, every count and every value is
/// length-prefixed (fixed-width big-endian), so no choice of values — a
/// `=` or a newline in a field, an empty list — can make two different
/// inputs encode alike.
struct CacheKeyBuilder {
    /// Changes whenever the encoding or the list of components does: older
    /// entries are then simply not found.
    static let version = "authcode-cache-key-v3"

    private var message: [UInt8] = []

    init() {
        append(Array(Self.version.utf8))
    }

    /// One component: a label and its values, in the order they count.
    mutating func add(_ label: String, _ values: [String]) {
        add(label, bytes: values.map { Array($0.utf8) })
    }

    mutating func add(_ label: String, bytes values: [[UInt8]]) {
        append(Array(label.utf8))
        appendLength(values.count)
        for value in values { append(value) }
    }

    /// The key: the HMAC as lower-case hex, fit for a file name.
    func key(salt: [UInt8]) -> String {
        Self.hex(HMAC.authenticationCode(for: message, key: salt, algorithm: .sha256))
    }

    private mutating func append(_ bytes: [UInt8]) {
        appendLength(bytes.count)
        message += bytes
    }

    private mutating func appendLength(_ count: Int) {
        let value = UInt64(count)
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
