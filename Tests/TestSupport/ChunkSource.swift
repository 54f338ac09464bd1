import Core

/// A `ByteSource` over chunks produced on demand by a closure (nil at the
/// end), or over bytes already in memory: tests stream inputs far larger
/// than they could hold (the product reads files: Core/Records/FileDescriptorSource.swift).
package struct ChunkSource: ByteSource {
    private let nextChunk: () -> [UInt8]?
    private var chunk: [UInt8] = []
    private var offset = 0

    package init(_ nextChunk: @escaping () -> [UInt8]?) {
        self.nextChunk = nextChunk
    }

    package init(_ bytes: [UInt8]) {
        var pending: [UInt8]? = bytes
        self.init {
            defer { pending = nil }
            return pending
        }
    }

    package mutating func read(into buffer: inout [UInt8], max: Int) throws(RecordInputError) -> Int {
        while offset == chunk.count {
            guard let next = nextChunk() else { return 0 }
            chunk = next
            offset = 0
        }
        let count = min(max, chunk.count - offset)
        buffer += chunk[offset..<offset + count]
        offset += count
        return count
    }
}
