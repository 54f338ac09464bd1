@testable import Core
import Testing

struct SHA1Tests {
    /// FIPS 180-4 examples: "abc", empty, 448 and 896 bits.
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "a49b2446a02c645bf419f995b67091253a04a259"),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(Hex.string(SHA1.hash(message.utf8)) == digest)
    }

    /// Around the 55/56-byte padding boundary and the 64-byte block.
    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (65, "11655326c708d70319be2610e8a57d9a5b959d3b"),
    ])
    func blockBoundaries(length: Int, digest: String) {
        #expect(Hex.string(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    @Test func oneMillionA() {
        #expect(Hex.string(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func updateInPiecesEqualsOneShot() {
        var hasher = SHA1()
        hasher.update("abcdbcdecdefdefgefghfghighijhij".utf8)
        hasher.update("kijkljklmklmnlmnomnopnopq".utf8)
        #expect(Hex.string(hasher.finalize()) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }
}
