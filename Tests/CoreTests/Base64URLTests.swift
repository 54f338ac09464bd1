import Testing
@testable import Core

struct Base64URLTests {
    /// RFC 4648 §10 test vectors, standard alphabet with padding and
    /// URL-safe without.
    @Test(arguments: [
        ("", "", ""), ("f", "Zg==", "Zg"), ("fo", "Zm8=", "Zm8"), ("foo", "Zm9v", "Zm9v"),
        ("foob", "Zm9vYg==", "Zm9vYg"), ("fooba", "Zm9vYmE=", "Zm9vYmE"), ("foobar", "Zm9vYmFy", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(text: String, standard: String, urlSafe: String) {
        let bytes = Array(text.utf8)
        #expect(Base64URL.encodeStandard(bytes) == standard)
        #expect(Base64URL.encode(bytes) == urlSafe)
        #expect(Base64URL.decode(standard[...]) == bytes)
        #expect(Base64URL.decode(urlSafe[...]) == bytes)
    }

    /// Bytes whose encoding uses the two alphabet-specific characters.
    @Test(arguments: [
        ([0xFB, 0xFF], "+/8=", "-_8"), ([0xFF, 0xFF, 0xFF], "////", "____"), ([0xFB, 0xEF, 0xBE], "++++", "----"),
        ([0x00], "AA==", "AA"), ([0x00, 0x00, 0x00, 0x00], "AAAAAA==", "AAAAAA"),
    ] as [([UInt8], String, String)])
    func alphabets(bytes: [UInt8], standard: String, urlSafe: String) {
        #expect(Base64URL.encodeStandard(bytes) == standard)
        #expect(Base64URL.encode(bytes) == urlSafe)
        #expect(Base64URL.decode(standard[...]) == bytes)
        #expect(Base64URL.decode(urlSafe[...]) == bytes)
    }

    @Test(arguments: [
        ("-/8", [0xFB, 0xFF]), ("+_8", [0xFB, 0xFF]), ("Zm9vYg=", Array("foob".utf8)), ("Zm9vYmE", Array("fooba".utf8)),
        ("eyJhIjoxfQ", Array("{\"a\":1}".utf8)), ("", []),
    ] as [(String, [UInt8])])
    func lenientDecode(text: String, bytes: [UInt8]) {
        #expect(Base64URL.decode(text[...]) == bytes)
    }

    @Test(arguments: ["Zm9v!", "Zm 9v", "Zm9v\n", "Zm9vY", "Z", "Zm9vYmFyZ", "é", "Zm9v.", "Zm9v*"])
    func invalid(text: String) {
        #expect(Base64URL.decode(text[...]) == nil)
    }

    @Test(arguments: 0..<40)
    func roundTrip(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
        let urlSafe = Base64URL.encode(bytes)
        #expect(!urlSafe.contains("=") && !urlSafe.contains("+") && !urlSafe.contains("/"))
        #expect(urlSafe.count == (length * 4 + 2) / 3)
        #expect(Base64URL.decode(urlSafe[...]) == bytes)
        #expect(Base64URL.encodeStandard(bytes).count == (length + 2) / 3 * 4)
        #expect(Base64URL.decode(Base64URL.encodeStandard(bytes)[...]) == bytes)
    }
}
