import Core
import HTTP

/// Finds the forms of a login or consent page, and the bits of text that
/// explain a failure, the way a browser without scripting would see them.
package enum HTMLFormParser {
    static func forms(in html: String) -> [HTMLForm] {
        var builder = HTMLFormBuilder(unclosedForms: { unclosedFormOffsets(in: html) })
        var tokenizer = HTMLTokenizer(html, keepAttributes: HTMLFormBuilder.needsAttributes)
        while let token = tokenizer.next() {
            builder.consume(token, tokenizer)
        }
        return builder.finish()
    }

    /// Visible text of the page's error message after a failed login: the
    /// first element whose class or id contains error, alert, danger,
    /// invalid or errornote, or whose role is alert, and that has text;
    /// whitespace collapsed, at most 200 characters.
    static func errorText(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html)
        var open: (name: String, depth: Int)?
        var text = HTMLCollapsedText(limit: 200)
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag):
                if let current = open {
                    if !isInline(tag.name) { text.append(" ") }  // blocks read as separate words
                    if tag.name == current.name {
                        // A new <p> or <li> closes the previous one.
                        if hasImpliedEnd(tag.name) {
                            if !text.isEmpty { return text.result }
                            open = nil
                        } else {
                            open = (current.name, current.depth + 1)
                        }
                    }
                } else if looksLikeError(tag) {
                    open = (tag.name, 1)
                }
            case .endTag(let name):
                guard let current = open else { continue }
                if !isInline(name) { text.append(" ") }
                guard name == current.name else { continue }
                if current.depth > 1 {
                    open = (current.name, current.depth - 1)
                } else if !text.isEmpty {
                    return text.result
                } else {
                    open = nil
                }
            case .text(let range):
                guard open != nil else { continue }
                text.append(tokenizer.text(range))
                if text.isFull { return text.result }
            }
        }
        return text.isEmpty ? nil : text.result
    }

    /// The page's `<title>`, whitespace collapsed; nil if none or empty.
    static func title(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { _ in false })
        var inTitle = false
        var text = HTMLCollapsedText(limit: 200)
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag): inTitle = tag.name == "title"
            case .endTag: if inTitle { return text.isEmpty ? nil : text.result }
            case .text(let range): if inTitle, !text.isFull { text.append(tokenizer.text(range)) }
            }
        }
        return text.isEmpty ? nil : text.result
    }

    // MARK: - Helpers

    /// Elements that cannot hold text, so cannot be the error message.
    private static func isVoid(_ name: String) -> Bool {
        switch name {
        case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr": true
        default: false
        }
    }

    /// Elements that do not break a line, so add no space between words.
    private static func isInline(_ name: String) -> Bool {
        switch name {
        case "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "label", "mark",
             "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var": true
        default: false
        }
    }

    private static func hasImpliedEnd(_ name: String) -> Bool {
        switch name {
        case "p", "li", "dt", "dd", "option": true
        default: false
        }
    }

    private static let errorMarks = ["error", "alert", "danger", "invalid"]  // "errornote" contains "error"

    private static func looksLikeError(_ tag: HTMLTag) -> Bool {
        guard !tag.attributes.isEmpty, !isVoid(tag.name), !tag.has("hidden") else { return false }
        if let style = tag["style"], style.lowercased().filter({ !$0.isWhitespace }).contains("display:none") {
            return false  // a template waiting for a script to fill it
        }
        if tag["role"].map({ HTMLCollapsedText.trim($0).lowercased() }) == "alert" { return true }
        let marked = [tag["class"], tag["id"]].compactMap { $0?.lowercased() }
        return marked.contains { value in errorMarks.contains { value.contains($0) } }
    }

    /// Bracket-matches `<form>` and `</form>` over the whole page and returns
    /// the start offsets of forms that are never closed. A `<form>` met
    /// while such a form is open ends it (authors forgot the `</form>`); one
    /// met while a closed form is open is a nested form, whose start tag
    /// browsers ignore.
    private static func unclosedFormOffsets(in html: String) -> Set<Int> {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { _ in false })
        var open: [Int] = []
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag) where tag.name == "form": open.append(tag.offset)
            case .endTag("form"): _ = open.popLast()
            default: continue
            }
        }
        return Set(open)
    }
}

/// Text with runs of ASCII whitespace collapsed to one space and trimmed,
/// capped so that a huge element costs nothing beyond its first characters.
package struct HTMLCollapsedText {
    private(set) var result = ""
    private var count = 0
    private var pendingSpace = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count >= limit }

    mutating func append(_ piece: String) {
        for character in piece {
            if character.isASCII, character.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                pendingSpace = false
                // A space is only worth its place if a character can follow it.
                guard count + 1 < limit, add(" ") else { return }
            }
            if !add(character) { return }
        }
    }

    private mutating func add(_ character: Character) -> Bool {
        guard count < limit else { return false }
        result.append(character)
        count += 1
        return true
    }

    /// `text` without leading and trailing ASCII whitespace.
    static func trim(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0.isASCII && $0.isWhitespace }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
