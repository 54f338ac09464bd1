import Testing
@testable import Core

struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// FIPS 180-4 / NIST CAVS examples.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(message.utf8)) == digest)
    }

    /// Lengths around the 55/56-byte padding boundary and the 64-byte block
    /// (expected digests from Python's hashlib over "a" repeated).
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (100_000, "6d1cf22d7cc09b085dfc25ee1a1f3ae0265804c607bc2074ad253bcc82fd81ee"),
    ])
    func blockBoundaries(length: Int, digest: String) {
        #expect(Self.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    /// NIST's one million "a".
    @Test func oneMillionA() {
        #expect(Self.hex(SHA256.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000))) ==
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func everyByteValue() {
        #expect(Self.hex(SHA256.hash((0...255).map { UInt8($0) })) == "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880")
    }

    /// Feeding the same bytes in pieces gives the one-shot digest, whatever the cut.
    @Test(arguments: [[0], [1], [55], [56], [63], [64], [65], [1, 1, 1], [10, 60, 3], [64, 64], [127, 1, 200]])
    func incremental(cuts: [Int]) {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var hasher = SHA256()
        var start = 0
        for cut in cuts {
            let end = min(start + cut, message.count)
            hasher.update(message[start..<end])
            start = end
        }
        hasher.update(message[start...])
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test func emptyUpdatesChangeNothing() {
        var hasher = SHA256()
        hasher.update([UInt8]())
        hasher.update("abc".utf8)
        hasher.update([UInt8]())
        #expect(Self.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
