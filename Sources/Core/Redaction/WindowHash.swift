/// A polynomial hash of byte strings modulo the Mersenne prime 2^61 − 1,
/// with a base drawn at random once per process (Karp–Rabin): the hash of
/// every window of one length slides along a text in constant time per
/// byte. Two different strings of length L collide with probability at
/// most L / 2^61 whatever they are, since the base is not known in advance.
/// A collision could only mask text that is not a secret, never let one
/// through (SecretScrubber.swift).
struct WindowHash {
    static let modulus: UInt64 = (1 << 61) - 1
    static let base = UInt64.random(in: 1 << 40 ..< modulus - 1)

    /// a × b mod 2^61 − 1, for a, b below the modulus.
    @inline(__always)
    static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        // 2^61 ≡ 1: fold the 122-bit product's 61-bit halves together.
        let folded = (high << 3 | low >> 61) &+ (low & modulus)
        return reduce(folded)
    }

    @inline(__always)
    static func reduce(_ value: UInt64) -> UInt64 {
        let once = (value & modulus) &+ (value >> 61)
        return once >= modulus ? once - modulus : once
    }

    /// The hash of `text` followed by `byte`.
    @inline(__always)
    static func appending(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        reduce(multiply(hash, base) &+ UInt64(byte))
    }

    /// base^exponent: the weight of a window's first byte is base^(L−1).
    static func power(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1, factor = base, rest = exponent
        while rest > 0 {
            if rest & 1 == 1 { result = multiply(result, factor) }
            factor = multiply(factor, factor)
            rest >>= 1
        }
        return result
    }

    /// The hash of the window after sliding one byte: `leaving` drops out
    /// at weight `firstWeight` (base^(L−1)), `entering` comes in.
    @inline(__always)
    static func slide(_ hash: UInt64, leaving: UInt8, entering: UInt8, firstWeight: UInt64) -> UInt64 {
        let removed = hash &+ modulus &- multiply(UInt64(leaving), firstWeight)
        return appending(reduce(removed), entering)
    }
}
