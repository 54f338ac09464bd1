/// The text a person would read in a response body, for an error line: for
/// HTML the tags go, and the content of script and style elements with
/// them; runs of space, tab, CR and LF become one space (LineText.swift).
/// One pass over the bytes, which stops once `limit` bytes of text are
/// gathered (a 4 MiB page is read only as far as needed).
package enum VisibleText {
    package static let limit = 4096

    package static func of(_ bytes: [UInt8], html: Bool, limit: Int = VisibleText.limit) -> String {
        guard html else { return LineText.folding(String(decoding: bytes.prefix(limit), as: UTF8.self), space: .lineBreaksAndBlanks) }
        // Character references decoded as a browser shows them (`&copy;`
        // is ©); a no-break space reads as a space.
        let stripped = stripTags(bytes, limit: limit).text
        let decoded = HTMLEntities.decode(stripped, 0..<stripped.count, inAttribute: false).replacingNoBreakSpaces
        return LineText.folding(decoded, space: .lineBreaksAndBlanks)
    }

    /// How many bytes of the body `of` reads to gather its text.
    package static func extent(of bytes: [UInt8], html: Bool, limit: Int = VisibleText.limit) -> Int {
        html ? stripTags(bytes, limit: limit).consumed : min(bytes.count, limit)
    }

    static func stripTags(_ html: [UInt8], limit: Int) -> (text: [UInt8], consumed: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(min(html.count, limit))
        var index = 0
        func startsWith(_ word: String, at position: Int) -> Bool {
            let pattern = Array(word.utf8)
            guard position + pattern.count <= html.count else { return false }
            for offset in 0..<pattern.count where lower(html[position + offset]) != pattern[offset] { return false }
            return true
        }
        while index < html.count, out.count < limit {
            let byte = html[index]
            guard byte == UInt8(ascii: "<") else {
                out.append(byte)
                index += 1
                continue
            }
            // Skip the raw text of script and style up to their end tag.
            for element in ["script", "style"] where startsWith("<" + element, at: index) {
                var search = index + 1
                while search < html.count, !startsWith("</" + element, at: search) { search += 1 }
                index = search
                break
            }
            while index < html.count, html[index] != UInt8(ascii: ">") { index += 1 }
            index += 1
            out.append(0x20)
        }
        return (out, min(index, html.count))
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

private extension String {
    var replacingNoBreakSpaces: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{A0}" ? " " : $0 }))
    }
}
