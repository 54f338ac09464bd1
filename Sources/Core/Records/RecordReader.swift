/// Streams the records of a batch input (`--users FILE`): CSV with a header
/// row (RFC 4180) or JSON Lines of flat string objects, told apart by
/// content — JSON Lines when the first non-blank byte is `{` — never by
/// file name. An optional UTF-8 byte-order mark is skipped.
///
/// Memory stays flat: one read buffer and the record being read, at most
/// `maxRecordBytes` of it, however long the input.
package struct RecordReader {
    package enum Format: Equatable, Sendable {
        case csv
        case jsonLines
    }

    package static let defaultMaxRecordBytes = 1 << 20

    private var stream: ByteStream
    private let maxRecordBytes: Int
    /// Known after the first call to `next()`.
    package private(set) var format: Format?
    private var header: [String] = []
    /// The CSV header's names (empty for JSON Lines), known after the first
    /// call to `next()`: checked before any request (Flow/Batch/CSVHeaderCheck.swift).
    package var columns: [String] { header }
    private var count = 0
    private var finished = false

    package init(source: some ByteSource, maxRecordBytes: Int = defaultMaxRecordBytes) {
        self.stream = ByteStream(source)
        self.maxRecordBytes = max(1, maxRecordBytes)
    }

    /// The next record, nil after the last. Throws for input that cannot be
    /// used at all — empty, no records, a bad header, a read error — and
    /// then returns nil.
    package mutating func next() throws(RecordInputError) -> Record? {
        guard !finished else { return nil }
        do throws(RecordInputError) {
            if format == nil { try start() }
            guard let (content, line) = try nextContent() else {
                finished = true
                if count == 0 { throw .noRecords }
                return nil
            }
            count += 1
            return Record(number: count, content: content, fileLine: line)
        } catch {
            finished = true
            throw error
        }
    }

    /// The next record's content and the file line it starts on.
    private mutating func nextContent() throws(RecordInputError) -> (Record.Content, Int)? {
        while true {
            let line = stream.lineFeeds + 1
            switch format {
            case .jsonLines:
                switch try JSONLinesReader(maxRecordBytes: maxRecordBytes).read(from: &stream) {
                case nil: return nil
                case .blank: continue
                case .error(let message): return (.error(message), line)
                case .fields(let fields): return (.fields(fields), line)
                }
            default:
                switch try CSVLineReader(maxRecordBytes: maxRecordBytes).read(from: &stream) {
                case nil: return nil
                case .blank: continue
                case .error(let message): return (.error(message), line)
                case .fields(let values): return (csvRecord(values), line)
                }
            }
        }
    }

    private func csvRecord(_ values: [[UInt8]]) -> Record.Content {
        guard values.count == header.count else {
            return .error("record has \(Self.fields(values.count)), the header has \(header.count)")
        }
        var fields: [NameValue] = []
        fields.reserveCapacity(values.count)
        for (name, bytes) in zip(header, values) {
            guard let value = String(validating: bytes, as: UTF8.self) else { return .error("record is not valid UTF-8") }
            fields.append(NameValue(name, value))
        }
        return .fields(fields)
    }

    // MARK: The start of the input: byte-order mark, format, CSV header.

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private mutating func start() throws(RecordInputError) {
        try skipByteOrderMark()
        // Blank bytes before the first record: none of them matter to JSON
        // Lines; for CSV, a line break among them means the header line is
        // blank, and spaces or tabs before the first name belong to it.
        var lineStart: [UInt8] = []
        var blankFirstLine = false
        while let byte = try stream.peek(), [0x20, 0x09, 0x0D, 0x0A].contains(byte) {
            _ = try stream.next()
            if byte == 0x0A { blankFirstLine = true }
            if lineStart.count <= maxRecordBytes { lineStart.append(byte) }
        }
        guard let first = try stream.peek() else { throw .noRecords }
        if first == UInt8(ascii: "{") {
            format = .jsonLines
            return
        }
        format = .csv
        guard !blankFirstLine else { throw .noColumns }
        stream.pushBack(lineStart)
        try readHeader()
    }

    private mutating func skipByteOrderMark() throws(RecordInputError) {
        var read: [UInt8] = []
        for expected in Self.byteOrderMark {
            guard let byte = try stream.next() else { break }
            read.append(byte)
            guard byte == expected else { break }
        }
        if read != Self.byteOrderMark { stream.pushBack(read) }
    }

    /// RFC 4180 §2.3: the first line names the fields. Names must be
    /// non-blank and distinct: each becomes a form field name.
    private mutating func readHeader() throws(RecordInputError) {
        switch try CSVLineReader(maxRecordBytes: maxRecordBytes).read(from: &stream) {
        case nil, .blank:
            throw .noColumns
        case .error(let reason):
            throw .badHeader(reason)
        case .fields(let values):
            var names: [String] = []
            var seen: Set<String> = []
            for (index, bytes) in values.enumerated() {
                guard let name = String(validating: bytes, as: UTF8.self) else { throw .badHeader("not valid UTF-8") }
                guard !name.trimmed.isEmpty else { throw .emptyColumnName(column: index + 1) }
                guard seen.insert(name).inserted else { throw .duplicateColumnName(name) }
                names.append(name)
            }
            header = names
        }
    }

    private static func fields(_ count: Int) -> String {
        count == 1 ? "1 field" : "\(count) fields"
    }
}
