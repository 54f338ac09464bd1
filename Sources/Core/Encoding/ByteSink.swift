/// Where an encoder writes its output, one byte at a time: into an array,
/// or into something that only measures it (Redaction/FormSketch.swift), so
/// that a form of a 4 MB secret need never exist in memory as a whole.
package protocol ByteSink {
    mutating func put(_ byte: UInt8)
}

extension ByteSink {
    mutating func put(text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { put(byte) } }
    }

    mutating func put(scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { put($0) }
    }
}

/// The bytes an encoder wrote, kept.
package struct ByteCollector: ByteSink {
    package var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func put(_ byte: UInt8) { bytes.append(byte) }

    package var string: String { String(decoding: bytes, as: UTF8.self) }
}
