import Core

/// A short, printable excerpt of a response body for error lines: enough to
/// recognise the page, never a whole document on the terminal.
package enum Excerpt {
    /// Visible text gathered before stopping: an excerpt needs a sentence,
    /// and a 4 MiB page is read once, linearly, and only as far as needed.
    static let textLimit = 4096

    package static func of(_ response: HTTPResponse, limit: Int = 120) -> String {
        var bytes = response.body
        if response.mediaType == "text/html" || bytes.prefix(textLimit).contains(UInt8(ascii: "<")) {
            bytes = stripTags(bytes)
        } else {
            bytes = Array(bytes.prefix(textLimit))
        }
        // Collapse every run of white space (CR, LF, tab, space) to one space.
        var words: [UInt8] = []
        for byte in bytes {
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if isSpace {
                if let last = words.last, last != 0x20 { words.append(0x20) }
            } else {
                words.append(byte)
            }
        }
        let text = String(decoding: words, as: UTF8.self).trimmed
        guard !text.isEmpty else { return "" }
        // Bounded to `limit` only once secrets are scrubbed (ServerText.swift).
        return ": " + ServerText.printable(text, limit: limit)
    }

    /// Tags out, and the content of script and style elements with them; one
    /// pass over the bytes.
    static func stripTags(_ html: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(html.count)
        var index = 0
        func startsWith(_ word: String, at position: Int) -> Bool {
            let pattern = Array(word.utf8)
            guard position + pattern.count <= html.count else { return false }
            for offset in 0..<pattern.count where lower(html[position + offset]) != pattern[offset] { return false }
            return true
        }
        while index < html.count, out.count < textLimit {
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
        return out
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
