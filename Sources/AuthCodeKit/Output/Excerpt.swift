/// A short, printable excerpt of a response body for error lines: enough to
/// recognise the page, never a whole document on the terminal.
enum Excerpt {
    static func of(_ response: HTTPResponse, limit: Int = 120) -> String {
        var text = response.text
        if response.mediaType == "text/html" || text.contains("<") {
            text = stripTags(text)
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).joined(separator: " ")
        guard !words.isEmpty else { return "" }
        let cleaned = ResponseChecks.printable(words)
        return ": " + (cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned)
    }

    /// Tags out, and the content of script and style elements with them.
    static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        var skipping: String?
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if let closing = skipping {
                if html[index...].lowercased().hasPrefix(closing) {
                    skipping = nil
                } else {
                    index = html.index(after: index)
                    continue
                }
            }
            if character == "<" {
                let rest = html[index...].prefix(8).lowercased()
                if rest.hasPrefix("<script") { skipping = "</script" } else if rest.hasPrefix("<style") { skipping = "</style" }
                inTag = true
            } else if character == ">" {
                inTag = false
                out.append(" ")
            } else if !inTag {
                out.append(character)
            }
            index = html.index(after: index)
        }
        return out
    }
}
