@testable import Core
import Testing

struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let expected: String
        /// RFC 4231 §4.6 compares only the first 128 bits.
        var truncatedTo: Int? = nil
        var testDescription: String { name }
    }

    static let hiThere = Array("Hi There".utf8)
    static let jefe = Array("what do ya want for nothing?".utf8)
    static let truncation = Array("Test With Truncation".utf8)
    static let bigKeyFirst = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
    static let bigKeyAndData = Array(("This is a test using a larger than block-size key and a larger than block-size data. "
        + "The key needs to be hashed before being used by the HMAC algorithm.").utf8)

    /// RFC 4231 §4.2–§4.8, HMAC-SHA-256.
    static let sha256: [Vector] = [
        Vector(name: "4231 case 1", key: [UInt8](repeating: 0x0b, count: 20), data: hiThere,
               expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(name: "4231 case 2", key: Array("Jefe".utf8), data: jefe,
               expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(name: "4231 case 3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
               expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(name: "4231 case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(name: "4231 case 5", key: [UInt8](repeating: 0x0c, count: 20), data: truncation,
               expected: "a3b6167473100ee06e0c796c2955552b", truncatedTo: 16),
        Vector(name: "4231 case 6", key: [UInt8](repeating: 0xaa, count: 131), data: bigKeyFirst,
               expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(name: "4231 case 7", key: [UInt8](repeating: 0xaa, count: 131), data: bigKeyAndData,
               expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    /// RFC 4231 §4.2–§4.8, HMAC-SHA-512.
    static let sha512: [Vector] = [
        Vector(name: "4231 case 1", key: [UInt8](repeating: 0x0b, count: 20), data: hiThere,
               expected: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
        Vector(name: "4231 case 2", key: Array("Jefe".utf8), data: jefe,
               expected: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
        Vector(name: "4231 case 3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
               expected: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
        Vector(name: "4231 case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               expected: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
        Vector(name: "4231 case 5", key: [UInt8](repeating: 0x0c, count: 20), data: truncation,
               expected: "415fad6271580a531d4179bc891d87a6", truncatedTo: 16),
        Vector(name: "4231 case 6", key: [UInt8](repeating: 0xaa, count: 131), data: bigKeyFirst,
               expected: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
        Vector(name: "4231 case 7", key: [UInt8](repeating: 0xaa, count: 131), data: bigKeyAndData,
               expected: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
    ]

    /// RFC 2202 §3, HMAC-SHA-1.
    static let sha1: [Vector] = [
        Vector(name: "2202 case 1", key: [UInt8](repeating: 0x0b, count: 20), data: hiThere,
               expected: "b617318655057264e28bc0b6fb378c8ef146be00"),
        Vector(name: "2202 case 2", key: Array("Jefe".utf8), data: jefe,
               expected: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        Vector(name: "2202 case 3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
               expected: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        Vector(name: "2202 case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               expected: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        Vector(name: "2202 case 5", key: [UInt8](repeating: 0x0c, count: 20), data: truncation,
               expected: "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        Vector(name: "2202 case 6", key: [UInt8](repeating: 0xaa, count: 80), data: bigKeyFirst,
               expected: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        Vector(name: "2202 case 7", key: [UInt8](repeating: 0xaa, count: 80),
               data: Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
               expected: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    static func check(_ vector: Vector, _ algorithm: HashAlgorithm) {
        let mac = HMAC.authenticationCode(for: vector.data, key: vector.key, algorithm: algorithm)
        // The output size L of RFC 2104 §2: the hash's.
        #expect(mac.count == [HashAlgorithm.sha1: 20, .sha256: 32, .sha512: 64][algorithm])
        #expect(Hex.string(Array(mac.prefix(vector.truncatedTo ?? mac.count))) == vector.expected)
    }

    @Test(arguments: sha256) func hmacSHA256(vector: Vector) { Self.check(vector, .sha256) }
    @Test(arguments: sha512) func hmacSHA512(vector: Vector) { Self.check(vector, .sha512) }
    @Test(arguments: sha1) func hmacSHA1(vector: Vector) { Self.check(vector, .sha1) }
}
