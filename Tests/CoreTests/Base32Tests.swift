@testable import Core
import Testing

struct Base32Tests {
    /// RFC 4648 §10 test vectors, padded as written there.
    @Test(arguments: [
        ("", ""), ("MY======", "f"), ("MZXQ====", "fo"), ("MZXW6===", "foo"),
        ("MZXW6YQ=", "foob"), ("MZXW6YTB", "fooba"), ("MZXW6YTBOI======", "foobar"),
    ])
    func rfcVectors(encoded: String, decoded: String) {
        #expect(Base32.decode(encoded) == Array(decoded.utf8))
    }

    /// Seeds as people paste them: lower case, grouped by spaces, unpadded.
    @Test(arguments: [
        "MZXW6YTBOI", "mzxw6ytboi", "mzxw 6ytb oi", "MZXW6YTBOI======", " MZXW\t6YTB\nOI ", "MzXw6YtBoI==",
    ])
    func tolerantForms(text: String) {
        #expect(Base32.decode(text) == Array("foobar".utf8))
    }

    /// Characters outside the alphabet (0, 1, 8, 9, punctuation, non-ASCII),
    /// data after padding, and impossible lengths.
    @Test(arguments: [
        "MZXW0YTB", "MZXW1YTB", "MZXW8", "MZXW-6YTB", "MZXW6YTBOI==X", "MZXWé", "M", "MZX", "MZXW6Y", "MZXW6YTBO",
    ])
    func refusesInvalid(text: String) {
        #expect(Base32.decode(text) == nil)
    }

    /// The RFC 6238 Appendix B seeds in base32, as an authenticator holds them.
    @Test func rfc6238Seed() {
        #expect(Base32.decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == Array("12345678901234567890".utf8))
    }
}
