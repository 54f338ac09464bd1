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
}
