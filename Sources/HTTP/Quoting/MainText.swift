import Core

/// Where the part of an HTML page a person reads first lies: its `<main>`
/// element, else its first `<h1>` or `<h2>` and the element after it. The
/// site's header, navigation and footer around it ("Help | Privacy",
/// "© 2024 …") say nothing about what went wrong. Byte offsets into the
/// raw body, so the excerpt stays raw until it is scrubbed (BodyQuote.swift).
/// Each search is one pass over the bytes (the names are short constants).
package enum MainText {
    package static func range(in body: [UInt8]) -> Range<Int>? {
        if let main = startTag("main", in: body, from: 0) {
            return main..<(endTag("main", in: body, from: main) ?? body.count)
        }
        let headings = ["h1", "h2"].compactMap { name in startTag(name, in: body, from: 0).map { (name, $0) } }
        guard let (name, heading) = headings.min(by: { $0.1 < $1.1 }) else { return nil }
        guard let headingEnd = endTag(name, in: body, from: heading) else { return heading..<body.count }
        // The element after the heading: the message under the title.
        guard let (next, nextStart) = nextStartTag(in: body, from: headingEnd),
              let nextEnd = endTag(next, in: body, from: nextStart) else { return heading..<headingEnd }
        return heading..<nextEnd
    }

    /// The offset of the first `<name` followed by `>`, `/` or white space.
    static func startTag(_ name: String, in body: [UInt8], from start: Int) -> Int? {
        let pattern = Array(("<" + name).utf8)
        var index = start
        while let found = find(pattern, in: body, from: index) {
            let after = found + pattern.count
            if after < body.count, [0x3E, 0x2F, 0x20, 0x09, 0x0A, 0x0D].contains(body[after]) { return found }
            index = found + 1
        }
        return nil
    }

    /// The offset just past the first `</name …>` at or after `start`.
    static func endTag(_ name: String, in body: [UInt8], from start: Int) -> Int? {
        guard let found = find(Array(("</" + name).utf8), in: body, from: start) else { return nil }
        guard let close = body[found...].firstIndex(of: 0x3E) else { return body.count }
        return close + 1
    }

    /// The first start tag (`<` then a letter) at or after `start`, and its name.
    static func nextStartTag(in body: [UInt8], from start: Int) -> (String, Int)? {
        var index = start
        while index + 1 < body.count {
            if body[index] == 0x3C, isLetter(body[index + 1]) {
                var end = index + 1
                while end < body.count, isLetter(body[end]) || (0x30...0x39).contains(body[end]) { end += 1 }
                return (String(decoding: body[(index + 1)..<end].map(lower), as: UTF8.self), index)
            }
            index += 1
        }
        return nil
    }

    /// Case-insensitive search for an ASCII pattern.
    private static func find(_ pattern: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, body.count >= pattern.count, start <= body.count - pattern.count else { return nil }
        var index = start
        while index <= body.count - pattern.count {
            var offset = 0
            while offset < pattern.count, lower(body[index + offset]) == pattern[offset] { offset += 1 }
            if offset == pattern.count { return index }
            index += 1
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 32 : byte
    }
}
