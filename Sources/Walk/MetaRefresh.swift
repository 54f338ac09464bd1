import Core
import HTTP

/// `<meta http-equiv="refresh" content="0; url=…">` and the `Refresh`
/// header of the same syntax (HTML §4.2.5.3): how interstitial "Redirecting…"
/// pages move a browser on without a form or a 3xx.
package enum MetaRefresh {
    /// The target of the page's first refresh directive, if it names one.
    static func target(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { $0 == "meta" })
        while let token = tokenizer.next() {
            guard case .startTag(let tag) = token, tag.name == "meta",
                  tag["http-equiv"]?.lowercased() == "refresh", let content = tag["content"] else { continue }
            return target(ofContent: content)
        }
        return nil
    }

    /// `5; url='next'`, `0;URL=next`, `0, next`: the URL part, unquoted;
    /// nil when the content only reloads the page (no URL).
    static func target(ofContent content: String) -> String? {
        var rest = Substring(content).drop { $0 == " " || $0 == "\t" }
        rest = rest.drop { $0.isASCII && ($0.isNumber || $0 == ".") }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard let separator = rest.first, separator == ";" || separator == "," else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        if rest.prefix(3).lowercased() == "url" {
            let afterWord = rest.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if afterWord.first == "=" { rest = afterWord.dropFirst().drop { $0 == " " || $0 == "\t" } }
        }
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = rest.dropFirst()
            if let end = rest.firstIndex(of: quote) { rest = rest[..<end] }
        }
        let url = rest.trimmed
        return url.isEmpty ? nil : url
    }
}
