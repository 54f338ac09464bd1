import Testing
@testable import Walk

/// The CBOR encoder against RFC 8949 Appendix A (every example of the kinds
/// it writes: integers, byte and text strings, arrays, maps), and its map
/// order against CTAP2's canonical form.
struct CBORTests {
    static func hex(_ text: String) -> [UInt8] { PyWebAuthn.hex(text) }

    /// RFC 8949 Appendix A, table 6: value and its encoding in hex.
    static let appendixA: [(CBOR, String)] = [
        (.unsigned(0), "00"),
        (.unsigned(1), "01"),
        (.unsigned(10), "0a"),
        (.unsigned(23), "17"),
        (.unsigned(24), "1818"),
        (.unsigned(25), "1819"),
        (.unsigned(100), "1864"),
        (.unsigned(1000), "1903e8"),
        (.unsigned(1_000_000), "1a000f4240"),
        (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
        (.unsigned(18_446_744_073_709_551_615), "1bffffffffffffffff"),
        (.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),  // -18446744073709551616
        (.int(-1), "20"),
        (.int(-10), "29"),
        (.int(-100), "3863"),
        (.int(-1000), "3903e7"),
        (.bytes([]), "40"),
        (.bytes([1, 2, 3, 4]), "4401020304"),
        (.text(""), "60"),
        (.text("a"), "6161"),
        (.text("IETF"), "6449455446"),
        (.text("\"\\"), "62225c"),
        (.text("\u{00fc}"), "62c3bc"),
        (.text("\u{6c34}"), "63e6b0b4"),
        (.text("\u{10151}"), "64f0908591"),
        (.array([]), "80"),
        (.array([.int(1), .int(2), .int(3)]), "83010203"),
        (.array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])]), "8301820203820405"),
        (.array((1...25).map { .int($0) }), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        (.map([:]), "a0"),
        (.map([.int(1): .int(2), .int(3): .int(4)]), "a201020304"),
        (.map([.text("a"): .int(1), .text("b"): .array([.int(2), .int(3)])]), "a26161016162820203"),
        (.array([.text("a"), .map([.text("b"): .text("c")])]), "826161a161626163"),
        (.map([.text("a"): .text("A"), .text("b"): .text("B"), .text("c"): .text("C"), .text("d"): .text("D"), .text("e"): .text("E")]),
         "a56161614161626142616361436164614461656145"),
    ]

    @Test(arguments: appendixA.indices)
    func rfc8949AppendixA(_ index: Int) {
        let (value, encoding) = Self.appendixA[index]
        #expect(value.encoded == Self.hex(encoding), "\(value)")
    }

    /// `.int` on the edges of each head size (RFC 8949 §3: 23/24, 255/256,
    /// 65535/65536, 2³²−1/2³²), both signs.
    @Test(arguments: [
        (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"), (65536, "1a00010000"),
        (4_294_967_295, "1affffffff"), (4_294_967_296, "1b0000000100000000"),
        (-24, "37"), (-25, "3818"), (-256, "38ff"), (-257, "390100"), (Int.min, "3b7fffffffffffffff"),
    ])
    func shortestHeads(_ value: Int, _ encoding: String) {
        #expect(CBOR.int(value).encoded == Self.hex(encoding))
    }

    /// The keys of RFC 8949's ordering examples (§4.2.1 and §4.2.3; the
    /// simple value `false` left out, which nothing here writes), in
    /// CTAP2's order: major type first, then length, then bytes. RFC 8949
    /// §4.2.1 would put [100] before [-1]; §4.2.3 would put -1 before 100.
    @Test func mapKeysInCTAP2Order() {
        let keys: [CBOR] = [.array([.int(-1)]), .text("aa"), .int(-1), .array([.int(100)]), .text("z"), .int(100), .int(10)]
        let map = CBOR.map(Dictionary(uniqueKeysWithValues: keys.map { ($0, CBOR.int(0)) }))
        // a7, then each key followed by its value 00:
        // 10, 100, -1, "z", "aa", [-1], [100]
        #expect(map.encoded == Self.hex("a7" + "0a00" + "186400" + "2000" + "617a00" + "62616100" + "812000" + "81186400"))
    }

    /// A map's order does not depend on how it was built.
    @Test func mapEncodingIsDeterministic() {
        let pairs: [(CBOR, CBOR)] = (0..<40).map { (.int($0 % 2 == 0 ? $0 : -$0), .text("v\($0)")) }
        let forward = CBOR.map(Dictionary(uniqueKeysWithValues: pairs))
        let backward = CBOR.map(Dictionary(uniqueKeysWithValues: pairs.reversed()))
        #expect(forward.encoded == backward.encoded)
    }
}
