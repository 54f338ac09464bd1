@testable import Core
import Testing
import TestSupport

struct RecordReaderTests {
    /// Every record of `text`, read through chunks of `chunk` bytes so that
    /// records and CRLFs straddle buffer refills.
    static func read(_ text: String, chunk: Int = 3) throws(RecordInputError) -> [Record] {
        try read(Array(text.utf8), chunk: chunk)
    }

    static func read(_ bytes: [UInt8], chunk: Int = 3, maxRecordBytes: Int = RecordReader.defaultMaxRecordBytes) throws(RecordInputError) -> [Record] {
        var offset = 0
        let source = ChunkSource {
            guard offset < bytes.count else { return nil }
            defer { offset += chunk }
            return Array(bytes[offset..<min(offset + chunk, bytes.count)])
        }
        var reader = RecordReader(source: source, maxRecordBytes: maxRecordBytes)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        // Compared without their file lines; fileLines(_:) reads those.
        return records.map { Record(number: $0.number, content: $0.content) }
    }

    /// The file line each record starts on.
    static func fileLines(_ text: String) throws(RecordInputError) -> [Int] {
        let bytes = Array(text.utf8)
        var offset = 0
        let source = ChunkSource {
            guard offset < bytes.count else { return nil }
            defer { offset += 2 }
            return Array(bytes[offset..<min(offset + 2, bytes.count)])
        }
        var reader = RecordReader(source: source)
        var lines: [Int] = []
        while let record = try reader.next() { lines.append(record.fileLine) }
        return lines
    }

    /// Issue 31 item 11: the line a record starts on in the file — a CSV
    /// header is line 1, blank lines count, a quoted line break stays in
    /// its record, a byte-order mark changes nothing.
    @Test(arguments: [
        ("username,password\nalice,a\nbob,b\n", [2, 3]),
        ("\u{FEFF}username,password\r\nalice,a\r\n\r\nbob,b\r\n", [2, 4]),
        ("username,note\nalice,\"two\nlines\"\nbob,x\nbad\n", [2, 4, 5]),
        ("{\"u\":\"a\"}\n\n{\"u\":\"b\"}\n", [1, 3]),
        ("\n\n{\"u\":\"a\"}\n", [3]),
    ])
    func recordsKnowTheirFileLine(_ text: String, _ lines: [Int]) throws {
        #expect(try Self.fileLines(text) == lines)
    }

    static func fields(_ pairs: (String, String)...) -> Record.Content {
        .fields(pairs.map { NameValue($0.0, $0.1) })
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func csvBasics(chunk: Int) throws {
        let records = try Self.read("username,password\nalice,s3cret\nbob,\"pa,ss\"\"word\"\n", chunk: chunk)
        #expect(records == [
            Record(number: 1, content: Self.fields(("username", "alice"), ("password", "s3cret"))),
            Record(number: 2, content: Self.fields(("username", "bob"), ("password", "pa,ss\"word"))),
        ])
    }

    @Test(arguments: [1, 2, 5])
    func csvCRLFNewlinesInQuotesAndNoFinalNewline(chunk: Int) throws {
        let records = try Self.read("user,note\r\nalice,\"line 1\r\nline 2\nline 3\"\r\nbob,\"\"\r\ncarol,x", chunk: chunk)
        #expect(records.map(\.content) == [
            Self.fields(("user", "alice"), ("note", "line 1\r\nline 2\nline 3")),
            Self.fields(("user", "bob"), ("note", "")),
            Self.fields(("user", "carol"), ("note", "x")),
        ])
    }

    @Test func csvBOMAndQuotedHeader() throws {
        let records = try Self.read([0xEF, 0xBB, 0xBF] + Array("\"user\",\"pass word\"\nbob,x y\n".utf8))
        #expect(records == [Record(number: 1, content: Self.fields(("user", "bob"), ("pass word", "x y")))])
    }

    /// Blank lines (empty, or only CRLF) are skipped and not counted; the
    /// trailing one too. A line of spaces is data.
    @Test func csvBlankLines() throws {
        let records = try Self.read("u\n\nalice\r\n\r\n\nbob\n \n\n")
        #expect(records == [
            Record(number: 1, content: Self.fields(("u", "alice"))),
            Record(number: 2, content: Self.fields(("u", "bob"))),
            Record(number: 3, content: Self.fields(("u", " "))),
        ])
    }

    /// A bad record fails alone and still counts.
    @Test func csvBadRecordsDoNotStopTheReader() throws {
        let bytes = Array("a,b\n1,2,3\n1\n\"x\"y,2\n".utf8) + [0xFF, 0x2C, 0x31, 0x0A] + Array("ok,fine\n".utf8)
        let records = try Self.read(bytes)
        #expect(records == [
            Record(number: 1, content: .error("record has 3 fields, the header has 2")),
            Record(number: 2, content: .error("record has 1 field, the header has 2")),
            Record(number: 3, content: .error("field 1 has text after its closing quote")),
            Record(number: 4, content: .error("record is not valid UTF-8")),
            Record(number: 5, content: Self.fields(("a", "ok"), ("b", "fine"))),
        ])
    }

    @Test func csvLenientButUnambiguous() throws {
        // A quote inside an unquoted field, a lone CR, a trailing comma.
        let records = try Self.read("a,b,c\npa\"ss,x\ry,\n")
        #expect(records.map(\.content) == [Self.fields(("a", "pa\"ss"), ("b", "x\ry"), ("c", ""))])
    }

    @Test func csvUnterminatedQuote() throws {
        let records = try Self.read("a\n\"never closed\nmore\n")
        #expect(records == [Record(number: 1, content: .error("a quoted field has no closing quote"))])
    }

    @Test func oversizedRecordFailsAlone() throws {
        let long = String(repeating: "x", count: 100)
        let csv = try Self.read(Array("a\n\(long)\nshort\n".utf8), maxRecordBytes: 50)
        #expect(csv.map(\.content) == [.error("record is longer than 50 bytes"), Self.fields(("a", "short"))])
        let commas = try Self.read(Array("a\n\(String(repeating: ",", count: 100))\nshort\n".utf8), maxRecordBytes: 50)
        #expect(commas.map(\.content) == [.error("record is longer than 50 bytes"), Self.fields(("a", "short"))])
        let jsonl = try Self.read(Array("{\"a\":\"\(long)\"}\n{\"a\":\"b\"}\n".utf8), maxRecordBytes: 50)
        #expect(jsonl.map(\.content) == [.error("record is longer than 50 bytes"), Self.fields(("a", "b"))])
    }

    @Test(arguments: [
        ("", RecordInputError.noRecords),
        (" \n\r\n\t", .noRecords),
        ("\u{FEFF}", .noRecords),
        ("user,password\n", .noRecords),
        ("user,password", .noRecords),
        ("user,password\n\n\n", .noRecords),
        ("\nuser\nbob\n", .noColumns),
        ("user,,pass\nbob,x,y\n", .emptyColumnName(column: 2)),
        ("user,\nbob,x\n", .emptyColumnName(column: 2)),
        (" ,user\nx,bob\n", .emptyColumnName(column: 1)),
        ("user,user\nbob,x\n", .duplicateColumnName("user")),
        ("\"user\nbob\n", .badHeader("a quoted field has no closing quote")),
    ])
    func wholeInputErrors(text: String, error: RecordInputError) {
        #expect(throws: error) { try Self.read(text) }
    }

    @Test func errorsAreThrownOnceThenNil() throws {
        var reader = RecordReader(source: ChunkSource(Array("a,b\n".utf8)))
        #expect(throws: RecordInputError.noRecords) { try reader.next() }
        #expect(try reader.next() == nil)
    }

    @Test func formatIsToldByContent() throws {
        var csv = RecordReader(source: ChunkSource(Array("\u{FEFF}name\n{x}\n".utf8)))
        #expect(try csv.next()?.fields == [NameValue("name", "{x}")])
        #expect(csv.format == .csv)
        var jsonl = RecordReader(source: ChunkSource(Array("\u{FEFF}\n  \r\n {\"name\":\"x\"}".utf8)))
        #expect(try jsonl.next() == Record(number: 1, content: Self.fields(("name", "x")), fileLine: 3))
        #expect(jsonl.format == .jsonLines)
    }

    @Test(arguments: [1, 4, 4096])
    func jsonLines(chunk: Int) throws {
        let text = """
            {"username":"alice","password":"p\\"w\\u00e9","z":"1","a":"2"}

            {"b":"x"} \r
            \t
            {"c":"y"}
            """
        let records = try Self.read(text, chunk: chunk)
        #expect(records == [
            Record(number: 1, content: Self.fields(("username", "alice"), ("password", "p\"wé"), ("z", "1"), ("a", "2"))),
            Record(number: 2, content: Self.fields(("b", "x"))),
            Record(number: 3, content: Self.fields(("c", "y"))),
        ])
    }

    /// Member order comes from the line, nested values notwithstanding.
    @Test func jsonLinesKeepOrderPastNestedValues() throws {
        let records = try Self.read("{\"z\":\"1\",\"m\\\"n\":\"{\\\"q\\\":1}\",\"a\":\"[,]\"}\n")
        #expect(records.map(\.content) == [Self.fields(("z", "1"), ("m\"n", "{\"q\":1}"), ("a", "[,]"))])
    }

    @Test func jsonLinesBadRecords() throws {
        let lines = [
            "{\"a\":\"ok\"}", "[\"not\",\"object\"]", "{\"a\":1}", "{\"a\":\"x\",\"b\":null}", "{\"a\":true}",
            "{\"a\":{\"nested\":\"x\"}}", "{\"a\":[]}", "{broken", "{\"a\":\"x\",\"a\":\"y\"}", "\"just a string\"", "{}",
        ]
        let bytes = Array(lines.joined(separator: "\n").utf8) + Array("\n{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        let records = try Self.read(bytes)
        #expect(records.map(\.number) == Array(1...12))
        #expect(records.map(\.content) == [
            Self.fields(("a", "ok")),
            .error("record is not a JSON object"),
            .error("field \"a\" is a number, not a string"),
            .error("field \"b\" is null, not a string"),
            .error("field \"a\" is a boolean, not a string"),
            .error("field \"a\" is an object, not a string"),
            .error("field \"a\" is an array, not a string"),
            .error("record is not valid JSON"),
            .error("field \"a\" appears more than once"),
            .error("record is not a JSON object"),
            .fields([]),
            .error("record is not valid UTF-8"),
        ])
    }

    /// 200 000 records made on the fly: the reader holds one at a time.
    @Test(arguments: [RecordReader.Format.csv, .jsonLines])
    func streamsFromAGenerator(format: RecordReader.Format) throws {
        let total = 200_000
        var produced = 0
        var sentHeader = format == .jsonLines
        let source = ChunkSource {
            if !sentHeader {
                sentHeader = true
                return Array("user,password\r\n".utf8)
            }
            guard produced < total else { return nil }
            var chunk: [UInt8] = []
            for _ in 0..<1000 {
                produced += 1
                let line = format == .csv ? "user\(produced),\"pw,\(produced)\"\r\n" : "{\"user\":\"user\(produced)\",\"password\":\"pw,\(produced)\"}\n"
                chunk += line.utf8
            }
            return chunk
        }
        var reader = RecordReader(source: source)
        var count = 0
        while let record = try reader.next() {
            count += 1
            if record.number != count || record.fields?.count != 2 {
                Issue.record("record \(count): \(record)")
                break
            }
            // The source is read a buffer at a time, never far ahead.
            #expect(produced - count <= ByteStream.chunkSize / 20 + 1000)
        }
        #expect(count == total)
        #expect(reader.format == format)
    }
}
