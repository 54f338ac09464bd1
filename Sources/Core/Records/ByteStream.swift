/// Byte-at-a-time reading over a `ByteSource`, through one fixed-size
/// buffer, with a few bytes of push-back for look-ahead (a byte-order mark
/// that turns out not to be one, the first byte that decides the format).
struct ByteStream {
    static let chunkSize = 64 * 1024

    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var pushedBack: [UInt8] = []   // read back to front
    private var ended = false
    /// Line feeds read so far (pushed-back ones not counted): the line the
    /// next byte is on is this plus one.
    private(set) var lineFeeds = 0

    init(_ source: some ByteSource) {
        self.source = source
        buffer.reserveCapacity(Self.chunkSize)
    }

    mutating func peek() throws(RecordInputError) -> UInt8? {
        if let last = pushedBack.last { return last }
        guard try fill() else { return nil }
        return buffer[position]
    }

    mutating func next() throws(RecordInputError) -> UInt8? {
        let byte: UInt8
        if let last = pushedBack.popLast() {
            byte = last
        } else {
            guard try fill() else { return nil }
            byte = buffer[position]
            position += 1
        }
        if byte == 0x0A { lineFeeds += 1 }
        return byte
    }

    /// Makes `bytes` the next ones read, in order.
    mutating func pushBack(_ bytes: [UInt8]) {
        pushedBack += bytes.reversed()
        lineFeeds -= bytes.count(where: { $0 == 0x0A })
    }

    /// Whether a byte is available, reading a new chunk if needed.
    private mutating func fill() throws(RecordInputError) -> Bool {
        while position == buffer.count {
            guard !ended else { return false }
            buffer.removeAll(keepingCapacity: true)
            position = 0
            if try source.read(into: &buffer, max: Self.chunkSize) == 0 { ended = true }
        }
        return true
    }
}
