import Core
import HTTP

/// Finds the forms of a login or consent page and its title, the way a
/// browser without scripting would see them (the text that explains a
/// failure: LoginErrorText.swift).
package enum HTMLFormParser {
    static func forms(in html: String) -> [HTMLForm] {
        var builder = HTMLFormBuilder(unclosedForms: { unclosedFormOffsets(in: html) })
        var tokenizer = HTMLTokenizer(html, keepAttributes: HTMLFormBuilder.needsAttributes)
        while let token = tokenizer.next() {
            builder.consume(token, tokenizer)
        }
        return builder.finish()
    }

    /// The page's `<title>`, whitespace collapsed; nil if none or empty.
    static func title(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { _ in false })
        var inTitle = false
        var text = LineText(limit: 200, space: .ascii)
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

/// HTML's white space (ASCII only, HTML §2.3.3): a no-break space is text.
package enum HTMLWhitespace {
    /// `text` without leading and trailing ASCII whitespace.
    static func trim(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0.isASCII && $0.isWhitespace }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}
