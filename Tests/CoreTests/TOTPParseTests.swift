@testable import Core
import Testing

struct TOTPParseTests {
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" // "12345678901234567890"
    static let seed256 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"

    @Test(arguments: [seed, seed.lowercased(), "  gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n", seed + "===="])
    func bareSeed(text: String) throws {
        let totp = try TOTP.parse(text)
        #expect(totp.secret == Array("12345678901234567890".utf8))
        #expect(totp.algorithm == .sha1 && totp.digits == 6 && totp.period == 30)
    }

    @Test func fullURI() throws {
        let totp = try TOTP.parse("otpauth://totp/ACME%20Co:alice%40example.com?secret=\(Self.seed256)&issuer=ACME%20Co&algorithm=SHA256&digits=8&period=60")
        #expect(totp.secret == Array("12345678901234567890123456789012".utf8))
        #expect(totp.algorithm == .sha256 && totp.digits == 8 && totp.period == 60)
        #expect(totp.code(at: 1_234_567_890) == "16450756")
    }

    @Test(arguments: [
        ("OTPAUTH://TOTP/x?SECRET=\(seed)&Algorithm=sha512", HashAlgorithm.sha512),
        ("otpauth://totp/x?secret=\(seed)&algorithm=Sha-256", .sha256),
        ("otpauth://totp?secret=\(seed)&algorithm=sha1#frag", .sha1),
        ("otpauth://totp/?secret=\(seed.lowercased())", .sha1),
        ("otpauth://totp/Label%3Aname?issuer=Label&secret=GEZD%20GNBV%20GY3T%20QOJQ%20GEZD%20GNBV%20GY3T%20QOJQ", .sha1),
    ])
    func variantsOfTheURI(text: String, algorithm: HashAlgorithm) throws {
        let totp = try TOTP.parse(text)
        #expect(totp.algorithm == algorithm)
        #expect(totp.secret == Array("12345678901234567890".utf8))
    }

    @Test(arguments: [
        ("", TOTPError.missingSecret),
        ("   ", .missingSecret),
        ("not base32!", .invalidSecret),
        ("GEZDGNBVGY3TQOJ1", .invalidSecret),
        ("otpauth://hotp/x?secret=\(seed)&counter=1", .hotpNotSupported),
        ("otpauth://HOTP/x?secret=\(seed)", .hotpNotSupported),
        ("otpauth://motp/x?secret=\(seed)", .notTOTPURI),
        ("otpauth:totp/x?secret=\(seed)", .notTOTPURI),
        ("otpauth-migration://offline?data=abc", .notTOTPURI),
        ("otpauth://totp/x", .missingSecret),
        ("otpauth://totp/x?issuer=a", .missingSecret),
        ("otpauth://totp/x?secret=", .missingSecret),
        ("otpauth://totp/x?secret=\(seed)1", .invalidSecret),
        ("otpauth://totp/x?secret=\(seed)&algorithm=MD5", .unsupportedAlgorithm),
        ("otpauth://totp/x?secret=\(seed)&digits=5", .invalidDigits),
        ("otpauth://totp/x?secret=\(seed)&digits=11", .invalidDigits),
        ("otpauth://totp/x?secret=\(seed)&digits=%2B8", .invalidDigits),
        ("otpauth://totp/x?secret=\(seed)&digits=eight", .invalidDigits),
        ("otpauth://totp/x?secret=\(seed)&digits=99999999999999999999999", .invalidDigits),
        ("otpauth://totp/x?secret=\(seed)&period=0", .invalidPeriod),
        ("otpauth://totp/x?secret=\(seed)&period=-30", .invalidPeriod),
        ("otpauth://totp/x?secret=\(seed)&period=86401", .invalidPeriod),
        ("otpauth://totp/x?secret=\(seed)&period=1e9", .invalidPeriod),
        ("otpauth://totp/x?secret=\(seed)&secret=AAAAAAAA", .duplicateParameter("secret")),
        ("otpauth://totp/x?secret=\(seed)&digits=6&Digits=8", .duplicateParameter("digits")),
    ])
    func refused(text: String, error: TOTPError) {
        #expect(throws: error) { try TOTP.parse(text) }
    }

    /// No message quotes any part of what was given.
    @Test(arguments: [
        "S3CRETS3CRET1", "otpauth://totp/x?secret=S3CRETS3CRET1", "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&algorithm=JBSWY3DPEHPK3PXP",
        "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=JBSWY3DPEHPK3PXP", "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&period=JBSWY3DPEHPK3PXP",
    ])
    func messagesNeverQuoteTheSecret(text: String) {
        do {
            _ = try TOTP.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(!error.description.contains("S3CRET"))
            #expect(!error.description.contains("JBSWY3DP"))
        }
    }
}
