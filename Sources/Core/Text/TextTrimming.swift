// Small string helpers, so the product needs no CharacterSet (FoundationEssentials
// keeps the binary small and startup fast, ARCHITECTURE.md, "Constraints").
extension StringProtocol {
    /// Without leading and trailing spaces, tabs, CR and LF. Works on bytes:
    /// as a Character, "\r\n" is one grapheme and equals neither "\r" nor
    /// "\n", and the four are one byte each in UTF-8, so the cuts fall
    /// between scalars. Every response header line passes here, so the
    /// text is cut in place and copied once, never scalar by scalar.
    package var trimmed: String {
        if let cut = utf8.withContiguousStorageIfAvailable({ bytes -> String in
            var start = 0, end = bytes.count
            while start < end, Self.isTrimmedSpace(bytes[start]) { start += 1 }
            while end > start, Self.isTrimmedSpace(bytes[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }) {
            return cut
        }
        let bytes = utf8  // not contiguous (a bridged string): walk the view
        guard let first = bytes.firstIndex(where: { !Self.isTrimmedSpace($0) }) else { return "" }
        var last = first
        for index in bytes[first...].indices where !Self.isTrimmedSpace(bytes[index]) { last = index }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    private static func isTrimmedSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
