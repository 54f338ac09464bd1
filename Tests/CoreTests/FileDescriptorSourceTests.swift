@testable import Core
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct FileDescriptorSourceTests {
    /// Records through a real pipe, the way `--users -` reads stdin.
    @Test func readsRecordsFromAPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let text = Array("\u{FEFF}user,password\nalice,\"a\nb\"\nbob,c\n".utf8)
        #expect(text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == text.count)
        close(ends[1])
        defer { close(ends[0]) }
        var reader = RecordReader(source: FileDescriptorSource(descriptor: ends[0]))
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.map(\.fields) == [
            [NameValue("user", "alice"), NameValue("password", "a\nb")],
            [NameValue("user", "bob"), NameValue("password", "c")],
        ])
    }

    @Test func readErrorIsReported() {
        var reader = RecordReader(source: FileDescriptorSource(descriptor: -1))
        #expect(throws: RecordInputError.readFailed(.system(String(cString: strerror(EBADF))))) { try reader.next() }
    }
}
