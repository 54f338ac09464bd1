/// Time-based one-time passwords (RFC 6238): HOTP (RFC 4226) over the
/// number of whole periods since the Unix epoch (T0 = 0, RFC 6238 §4.2).
/// Arithmetic saturates instead of trapping: a clock or a parameter out of
/// range gives a wrong code, never a crash.
package struct TOTP: Equatable, Sendable {
    /// RFC 4226 §5.3 asks for at least 6 digits; the 31-bit truncated value
    /// has 10, so more would only add leading zeros.
    package static let digitRange = 6...10
    /// One second to one day: beyond that a "one-time" code is not.
    package static let periodRange = 1...86_400

    package let secret: [UInt8]
    package let algorithm: HashAlgorithm
    package let digits: Int
    package let period: Int

    /// The defaults are RFC 6238 §5.2's 30 seconds and the 6 digits and
    /// SHA-1 that authenticator apps assume when a seed says nothing.
    package init(secret: [UInt8], algorithm: HashAlgorithm = .sha1, digits: Int = 6, period: Int = 30) throws(TOTPError) {
        guard !secret.isEmpty else { throw .missingSecret }
        guard Self.digitRange.contains(digits) else { throw .invalidDigits }
        guard Self.periodRange.contains(period) else { throw .invalidPeriod }
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// The code for `unixTime` (seconds since the epoch), zero-padded.
    package func code(at unixTime: Double) -> String {
        Self.hotp(secret: secret, counter: counter(at: unixTime), digits: digits, algorithm: algorithm)
    }

    /// T of RFC 6238 §4.2: floor(time / period). Times before the epoch or
    /// not finite count as 0; times past the 64-bit counter saturate.
    package func counter(at unixTime: Double) -> UInt64 {
        let steps = (Self.clamped(unixTime) / Double(period)).rounded(.down)
        return steps < 18_446_744_073_709_551_616.0 ? UInt64(steps) : .max
    }

    /// HOTP (RFC 4226 §5.3): HMAC of the big-endian counter, dynamic
    /// truncation to 31 bits, then the low `digits` decimal digits.
    package static func hotp(secret: [UInt8], counter: UInt64, digits: Int, algorithm: HashAlgorithm = .sha1) -> String {
        let message = stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: counter >> UInt64($0)) }
        let mac = HMAC.authenticationCode(for: message, key: secret, algorithm: algorithm)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = UInt64(mac[offset] & 0x7F) << 24 | UInt64(mac[offset + 1]) << 16
            | UInt64(mac[offset + 2]) << 8 | UInt64(mac[offset + 3])
        let width = min(max(digits, 1), 10)
        let modulus = (0..<width).reduce(UInt64(1)) { product, _ in product * 10 }
        let text = String(truncated % modulus)
        return String(repeating: "0", count: width - text.count) + text
    }

    private static func clamped(_ unixTime: Double) -> Double {
        unixTime.isFinite && unixTime > 0 ? unixTime : 0
    }
}

/// Printing or dumping a TOTP never shows the seed.
extension TOTP: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "TOTP(\(algorithm.rawValue), \(digits) digits, \(period)s)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "digits": digits, "period": period])
    }
}
