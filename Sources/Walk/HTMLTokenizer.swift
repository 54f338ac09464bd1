import Core
import HTTP

/// One attribute of a start tag: lower-cased name, entity-decoded value.
package struct HTMLAttribute: Equatable, Sendable {
    var name: String
    var value: String
}

/// A start tag: lower-cased name, attributes in source order (the first of
/// a repeated name wins, as in browsers) and where it began in the input.
package struct HTMLTag: Equatable, Sendable {
    var name: String
    var attributes: [HTMLAttribute]
    var selfClosing: Bool
    var offset: Int

    subscript(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    func has(_ name: String) -> Bool {
        attributes.contains { $0.name == name }
    }
}

package enum HTMLToken: Equatable, Sendable {
    case startTag(HTMLTag)
    case endTag(String)
    /// Raw bytes of character data; decode with `HTMLTokenizer.text(_:)` only
    /// when needed, so skipping a 50 MB page allocates little.
    case text(Range<Int>)
}

/// A lenient, single-pass HTML tokenizer after the WHATWG one, reduced to
/// what form extraction needs: tags with attributes (any quoting, any case),
/// text, comments and doctypes skipped, `<script>`/`<style>` bodies skipped
/// and `<textarea>`/`<title>` bodies read as text. Every byte is looked at a
/// bounded number of times, so the work is linear in the input.
package struct HTMLTokenizer {
    private let bytes: [UInt8]
    private var position = 0
    /// Set after a raw-text or RCDATA start tag: its end tag is searched for
    /// without interpreting anything in between.
    private var rawTextEnd: (name: [UInt8], emitText: Bool)?
    /// Decides from a tag name whether to keep its attributes. A pass that
    /// only counts `<form>` tags keeps none and so allocates nothing per tag.
    private let keepAttributes: @Sendable (String) -> Bool
    /// Whether a `<script>` element's raw text comes out as a `.text`
    /// token (a login driver reads a page's embedded configuration); by
    /// default it is skipped like any raw text.
    private let scriptText: Bool
    /// A tag name or attribute list beyond these is hostile, not HTML.
    private static let maxNameLength = 64
    private static let maxAttributes = 256

    init(_ html: String, keepAttributes: @escaping @Sendable (String) -> Bool = { _ in true }, scriptText: Bool = false) {
        self.bytes = Array(html.utf8)
        self.keepAttributes = keepAttributes
        self.scriptText = scriptText
    }

    /// The decoded text of a `.text` token.
    func text(_ range: Range<Int>) -> String {
        HTMLEntities.decode(bytes, range, inAttribute: false)
    }

    /// The bytes of a `.text` token as they are: a script's text, where
    /// `&amp;` is not a character reference (HTML §13.1.2.1 raw text).
    func rawText(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func next() -> HTMLToken? {
        if let raw = rawTextEnd {
            rawTextEnd = nil
            let start = position
            position = endTagStart(named: raw.name, from: start)
            if raw.emitText, position > start { return .text(start..<position) }
        }
        while position < bytes.count {
            if bytes[position] == lt, startsMarkup(at: position) {
                if let token = markup() { return token }
                continue
            }
            let start = position
            position += 1
            while position < bytes.count, !(bytes[position] == lt && startsMarkup(at: position)) {
                position += 1
            }
            return .text(start..<position)
        }
        return nil
    }

    // MARK: - Markup

    private let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")

    /// `<` followed by a letter, `/`, `!` or `?`; any other `<` is text.
    private func startsMarkup(at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let next = bytes[index + 1]
        if isLetter(next) || next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return true }
        return next == slash && index + 2 < bytes.count
    }

    /// Consumes one markup construct at `position`; a token, or nil for
    /// things that produce none (comments, doctypes, tags cut off by EOF).
    private mutating func markup() -> HTMLToken? {
        guard position + 1 < bytes.count else {
            position = bytes.count
            return nil
        }
        let next = bytes[position + 1]
        if next == UInt8(ascii: "!") {
            if hasPrefix("<!--", at: position) { skipComment() } else { skipPast(gt, from: position + 2) }
            return nil
        }
        if next == UInt8(ascii: "?") {
            skipPast(gt, from: position + 2)
            return nil
        }
        if next == slash {
            if position + 2 < bytes.count, isLetter(bytes[position + 2]) {
                let name = readName(from: position + 2)
                // End tags may carry attributes; parse them only to find the `>`.
                var attributes: [HTMLAttribute] = []
                guard readAttributes(keep: false, into: &attributes) != nil else { return nil }
                return .endTag(name)
            }
            skipPast(gt, from: position + 2)  // `</>` and bogus comments
            return nil
        }
        let offset = position
        let name = readName(from: position + 1)
        var attributes: [HTMLAttribute] = []
        guard let selfClosing = readAttributes(keep: keepAttributes(name), into: &attributes) else { return nil }
        switch name {
        // Elements whose content is never markup (HTML §13.1.2). `noscript`
        // is not among them: we behave like a browser without scripting,
        // whose users see (and submit) what is inside `<noscript>`.
        case "script":
            rawTextEnd = (Array(name.utf8), scriptText)
        case "style", "xmp", "iframe", "noembed", "noframes", "plaintext":
            rawTextEnd = (Array(name.utf8), false)
        case "textarea", "title":
            rawTextEnd = (Array(name.utf8), true)
        default:
            break
        }
        return .startTag(HTMLTag(name: name, attributes: attributes, selfClosing: selfClosing, offset: offset))
    }

    /// A tag name from `start` up to whitespace, `/` or `>`, lower-cased.
    private mutating func readName(from start: Int) -> String {
        var end = start
        while end < bytes.count, !isSpace(bytes[end]), bytes[end] != slash, bytes[end] != gt {
            end += 1
        }
        position = end
        return lowercasedName(start..<end)
    }

    /// Reads attributes up to and including `>`. Returns whether the tag
    /// ended in `/>`, or nil when the input ended first (browsers drop such
    /// a tag).
    private mutating func readAttributes(keep: Bool, into attributes: inout [HTMLAttribute]) -> Bool? {
        var names: Set<String> = []  // for dropping repeats once a tag has many
        while true {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if byte == gt {
                position += 1
                return false
            }
            if byte == slash {
                position += 1
                if position < bytes.count, bytes[position] == gt {
                    position += 1
                    return true
                }
                continue
            }
            // Attribute name: anything up to whitespace, `/`, `>` or a later `=`.
            let nameStart = position
            position += 1
            while position < bytes.count, !isSpace(bytes[position]),
                  bytes[position] != slash, bytes[position] != gt, bytes[position] != UInt8(ascii: "=") {
                position += 1
            }
            let nameRange = nameStart..<position
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            var valueRange = position..<position
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                while position < bytes.count, isSpace(bytes[position]) { position += 1 }
                guard position < bytes.count else { return nil }
                let quote = bytes[position]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    let valueStart = position + 1
                    guard let close = firstIndex(of: quote, from: valueStart) else {
                        position = bytes.count  // the value swallows the rest, as in browsers
                        return nil
                    }
                    valueRange = valueStart..<close
                    position = close + 1
                } else {
                    let valueStart = position
                    while position < bytes.count, !isSpace(bytes[position]), bytes[position] != gt {
                        position += 1
                    }
                    valueRange = valueStart..<position
                }
            }
            if keep, attributes.count < Self.maxAttributes {
                let name = lowercasedName(nameRange)
                let isNew: Bool
                if attributes.count < 16 {
                    isNew = !attributes.contains { $0.name == name }
                } else {
                    if names.isEmpty { names = Set(attributes.map(\.name)) }
                    isNew = names.insert(name).inserted
                }
                if isNew {
                    let value = HTMLEntities.decode(bytes, valueRange, inAttribute: true)
                    attributes.append(HTMLAttribute(name: name, value: value))
                }
            }
        }
    }

    /// `<!-- … -->`; also the abrupt `<!-->` and `<!--->`, and `--!>`.
    /// An unterminated comment runs to the end, as in browsers.
    private mutating func skipComment() {
        let bodyStart = position + 4
        if hasPrefix(">", at: bodyStart) { position = bodyStart + 1; return }
        if hasPrefix("->", at: bodyStart) { position = bodyStart + 2; return }
        var index = bodyStart
        while let dash = firstIndex(of: UInt8(ascii: "-"), from: index) {
            if hasPrefix("-->", at: dash) { position = dash + 3; return }
            if hasPrefix("--!>", at: dash) { position = dash + 4; return }
            index = dash + 1
        }
        position = bytes.count
    }

    /// Where `</name` (any case, then whitespace, `/`, `>` or the end) next
    /// starts at or after `start`; the end of input when it never does.
    private func endTagStart(named name: [UInt8], from start: Int) -> Int {
        var index = start
        while let open = firstIndex(of: lt, from: index) {
            let nameStart = open + 2
            let nameEnd = nameStart + name.count
            if nameEnd <= bytes.count, bytes[open + 1] == slash,
               name.indices.allSatisfy({ bytes[nameStart + $0] | 0x20 == name[$0] }),
               nameEnd == bytes.count || isSpace(bytes[nameEnd]) || bytes[nameEnd] == slash || bytes[nameEnd] == gt {
                return open
            }
            index = open + 1
        }
        return bytes.count
    }

    private mutating func skipPast(_ byte: UInt8, from start: Int) {
        position = firstIndex(of: byte, from: start).map { $0 + 1 } ?? bytes.count
    }

    // MARK: - Bytes

    private func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private func hasPrefix(_ prefix: String, at index: Int) -> Bool {
        let expected = prefix.utf8
        guard index >= 0, index + expected.count <= bytes.count else { return false }
        return bytes[index..<(index + expected.count)].elementsEqual(expected)
    }

    private func lowercasedName(_ range: Range<Int>) -> String {
        guard range.count <= Self.maxNameLength else { return "?" }
        let bytes = bytes[range]
        guard bytes.contains(where: isUpper) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        isUpper(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }

    private func isUpper(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }
}
