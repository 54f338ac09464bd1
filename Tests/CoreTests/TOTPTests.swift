@testable import Core
import Testing

struct TOTPTests {
    /// RFC 6238 Appendix B seeds: the ASCII digits repeated to the hash's size.
    static let seeds: [HashAlgorithm: [UInt8]] = [
        .sha1: Array("12345678901234567890".utf8),
        .sha256: Array("12345678901234567890123456789012".utf8),
        .sha512: Array("1234567890123456789012345678901234567890123456789012345678901234".utf8),
    ]

    /// RFC 6238 Appendix B, every row: 8 digits, 30-second period.
    @Test(arguments: [
        (59.0, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfc6238AppendixB(time: Double, sha1: String, sha256: String, sha512: String) throws {
        for (algorithm, expected) in [(HashAlgorithm.sha1, sha1), (.sha256, sha256), (.sha512, sha512)] {
            let totp = try TOTP(secret: Self.seeds[algorithm]!, algorithm: algorithm, digits: 8)
            #expect(totp.code(at: time) == expected, "\(algorithm)")
        }
    }

    /// RFC 4226 Appendix D: HOTP-SHA-1, 6 digits, counters 0 to 9.
    @Test(arguments: zip(0..<10, ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]))
    func rfc4226AppendixD(counter: Int, expected: String) {
        #expect(TOTP.hotp(secret: Self.seeds[.sha1]!, counter: UInt64(counter), digits: 6) == expected)
    }

    /// Leading zeros kept; 10 digits is the whole 31-bit value.
    @Test func zeroPaddingAndTenDigits() throws {
        let six = try TOTP(secret: Self.seeds[.sha1]!, digits: 6)
        #expect(six.code(at: 1_111_111_109) == "081804")
        let ten = try TOTP(secret: Self.seeds[.sha256]!, algorithm: .sha256, digits: 10, period: 60)
        #expect(ten.code(at: 1_234_567_890) == "1016450756")
    }

    @Test func periodArithmetic() throws {
        let totp = try TOTP(secret: [1, 2, 3], period: 30)
        #expect(totp.counter(at: 59) == 1)
        #expect(totp.counter(at: 60) == 2)
        #expect(totp.counter(at: 59.5) == 1)
        #expect(totp.counter(at: 89.999) == 2)
    }

    /// Nothing traps: times before the epoch, not finite, or past the counter.
    @Test(arguments: [-1.0, -1e300, .nan, .infinity, -.infinity, 1e300, Double.greatestFiniteMagnitude])
    func oddTimesNeverTrap(time: Double) throws {
        let totp = try TOTP(secret: Self.seeds[.sha1]!)
        #expect(totp.code(at: time).count == 6)
        #expect(totp.counter(at: time) == (time.isFinite && time > 0 ? .max : 0), "0 before the epoch, saturated past the counter")
    }

    @Test func initValidates() {
        #expect(throws: TOTPError.missingSecret) { try TOTP(secret: []) }
        #expect(throws: TOTPError.invalidDigits) { try TOTP(secret: [1], digits: 5) }
        #expect(throws: TOTPError.invalidDigits) { try TOTP(secret: [1], digits: 11) }
        #expect(throws: TOTPError.invalidPeriod) { try TOTP(secret: [1], period: 0) }
        #expect(throws: TOTPError.invalidPeriod) { try TOTP(secret: [1], period: -30) }
    }

    @Test func descriptionHidesTheSeed() throws {
        let totp = try TOTP(secret: Array("SECRETSEED".utf8))
        #expect(String(describing: totp) == "TOTP(SHA1, 6 digits, 30s)")
        var dumped = ""
        dump(totp, to: &dumped)
        #expect(!dumped.contains("secret"))
        #expect(!dumped.contains("83"))  // "S" = 83: no byte of the seed
    }
}
