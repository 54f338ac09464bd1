/// The frame SHA-1, SHA-256 and SHA-512 share (FIPS 180-4 §5): bytes are
/// buffered into blocks, each block is compressed into the state, and the
/// message ends with the padding of §5.1 — 0x80, zeros, the length in bits,
/// big-endian. Each hash brings its block size, its compression function and
/// how its state reads as a digest.
package protocol BlockHash {
    init()
    /// 64 bytes (SHA-1, SHA-256) or 128 (SHA-512).
    static var blockSize: Int { get }
    var pending: [UInt8] { get set }
    /// Bytes seen so far.
    var length: UInt64 { get set }
    mutating func compress(_ block: [UInt8])
    var digest: [UInt8] { get }
}

extension BlockHash {
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == Self.blockSize {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest; the hasher is spent afterwards.
    package mutating func finalize() -> [UInt8] {
        // The length field is an eighth of a block: 64 bits, or 128 for
        // SHA-512, whose upper half holds what `length * 8` shifts out.
        let fieldSize = Self.blockSize / 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockSize != Self.blockSize - fieldSize { tail.append(0) }
        var words = [length &* 8]
        if fieldSize == 16 { words.insert(length >> 61, at: 0) }
        for word in words {
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        for start in stride(from: 0, to: tail.count, by: Self.blockSize) { compress(Array(tail[start..<start + Self.blockSize])) }
        pending.removeAll()
        return digest
    }

    /// The 32-bit words of a state, big-endian.
    static func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// The first 16 big-endian 32-bit words of a block, in a schedule of
    /// `count` words (FIPS 180-4 §6.1.2 and §6.2.2, step 1).
    static func schedule32(_ block: [UInt8], count: Int) -> [UInt32] {
        var w = [UInt32](repeating: 0, count: count)
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        return w
    }
}

/// A hash whose state is 32-bit words and whose digest is that state,
/// big-endian (SHA-1 and SHA-256; FIPS 180-4 §6.1.2 and §6.2.2, step 4).
package protocol WordStateHash: BlockHash {
    var state: [UInt32] { get }
}

extension WordStateHash {
    package var digest: [UInt8] { Self.bigEndianBytes(state) }
}
