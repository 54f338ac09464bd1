/// SHA-1 (FIPS 180-4 §6.1), only because TOTP defaults to HMAC-SHA-1
/// (RFC 6238 §1.2) and most authenticator seeds use it. Nothing here relies
/// on SHA-1's broken collision resistance: HMAC does not (RFC 2104 §6).
/// Same shape as `SHA256`: inputs are short (an 8-byte TOTP counter).
package struct SHA1: WordStateHash, Sendable {
    package static let blockSize = 64

    package private(set) var state: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
    package var pending: [UInt8] = []
    package var length: UInt64 = 0

    package init() {}

    package mutating func compress(_ block: [UInt8]) {
        var w = Self.schedule32(block, count: 80)
        for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for i in 0..<80 {
            let (f, k): (UInt32, UInt32) = switch i {
            case 0..<20: ((b & c) | (~b & d), 0x5A827999)
            case 20..<40: (b ^ c ^ d, 0x6ED9EBA1)
            case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
            default: (b ^ c ^ d, 0xCA62C1D6)
            }
            let t = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d; state[4] &+= e
    }

    private func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
