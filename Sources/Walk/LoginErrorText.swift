import Core
import HTTP

/// The message a person reads on a login page sent back after a failed
/// login, for "login rejected: …". Live regions first (WAI-ARIA 1.2 §6.3.8
/// `alert`, §6.7 `aria-live`: what a screen reader announces), then elements
/// whose class names say error, alert, danger, invalid or feedback, then
/// (for older themes) an id that does. Hidden elements never count: the
/// `hidden` attribute, `aria-hidden="true"`, an inline `display:none` or
/// `visibility:hidden`, and whatever is inside one of them or inside
/// `<template>` or `<noscript>` (`<script>` and `<style>` are never text to
/// the tokenizer). No stylesheet is read, so a banner hidden only by CSS
/// loses to a live region. Entities decoded, every run of white space one
/// space, at most `limit` characters.
package enum LoginErrorText {
    static let limit = 200
    /// Bounds so a hostile page of nested elements costs linear time.
    static let maxDepth = 512
    static let maxOpenCandidates = 32

    /// Better tiers have lower numbers.
    enum Tier: Int, Comparable {
        case liveRegion = 0, errorClass, errorID
        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    private struct Candidate {
        var tier: Tier
        var start: Int
        var text = LineText(limit: LoginErrorText.limit)
    }

    private struct Open {
        var name: String
        var hidden: Bool
        /// Set on an element that may be the message.
        var candidate: Candidate?
    }

    /// One pass over the page with a stack of open elements, each visible
    /// candidate collecting its text until its end tag (or an implied one).
    static func find(in html: String) -> String? {
        var tokenizer = HTMLTokenizer(html)
        var stack: [Open] = []
        /// Stack positions holding a candidate, bottom first.
        var collecting: [Int] = []
        var best: (tier: Tier, start: Int, text: String)?
        var skipNextText = false

        func popTo(_ depth: Int) {
            while stack.count > depth {
                let element = stack.removeLast()
                guard let found = element.candidate else { continue }
                collecting.removeLast()
                guard !found.text.isEmpty else { continue }
                if best.map({ (found.tier, found.start) < ($0.tier, $0.start) }) ?? true {
                    best = (found.tier, found.start, found.text.result)
                }
            }
        }
        func append(_ text: String) {
            for depth in collecting { stack[depth].candidate?.text.append(text) }
        }

        while let token = tokenizer.next() {
            // A live region with text, and none open that started before it: nothing can beat it.
            if let found = best, found.tier == .liveRegion,
               !collecting.contains(where: { stack[$0].candidate.map { $0.tier == .liveRegion && $0.start < found.start } ?? false }) {
                return found.text
            }
            let textFollows = skipNextText
            skipNextText = false
            switch token {
            case .startTag(let tag):
                if let open = stack.lastIndex(where: { closesImplicitly(tag.name, open: $0.name) }),
                   stack[(open + 1)...].allSatisfy({ isInline($0.name) }) {
                    popTo(open)
                }
                if !isInline(tag.name) { append(" ") }
                // Their content is raw text: a textarea's value or the title is not the message.
                skipNextText = tag.name == "textarea" || tag.name == "title"
                guard !isVoid(tag.name), !tag.selfClosing, stack.count < maxDepth else { continue }
                let hidden = (stack.last?.hidden ?? false) || isHidden(tag)
                var element = Open(name: tag.name, hidden: hidden, candidate: nil)
                if !hidden, collecting.count < maxOpenCandidates, let tier = tier(of: tag), best.map({ tier < $0.tier }) ?? true {
                    element.candidate = Candidate(tier: tier, start: tag.offset)
                    collecting.append(stack.count)
                }
                stack.append(element)
            case .endTag(let name):
                if !isInline(name) { append(" ") }
                if let index = stack.lastIndex(where: { $0.name == name }) { popTo(index) }
            case .text(let range):
                guard !collecting.isEmpty, !textFollows, stack.last?.hidden != true else { continue }
                append(tokenizer.text(range))
            }
        }
        popTo(0)
        return best?.text
    }

    // MARK: - Which elements

    private static let marks = ["error", "alert", "danger", "invalid", "feedback"]

    static func tier(of tag: HTMLTag) -> Tier? {
        if let role = tag["role"], words(role).contains("alert") { return .liveRegion }
        if let live = tag["aria-live"], ["polite", "assertive"].contains(HTMLWhitespace.trim(live).lowercased()) {
            return .liveRegion
        }
        if let classes = tag["class"], words(classes).contains(where: { token in marks.contains { token.contains($0) } }) {
            return .errorClass
        }
        if let id = tag["id"]?.lowercased(), marks.contains(where: { id.contains($0) }) { return .errorID }
        return nil
    }

    static func isHidden(_ tag: HTMLTag) -> Bool {
        if tag.name == "template" || tag.name == "noscript" || tag.has("hidden") { return true }
        if tag["aria-hidden"].map({ HTMLWhitespace.trim($0).lowercased() }) == "true" { return true }
        guard let style = tag["style"]?.lowercased().filter({ !$0.isWhitespace }) else { return false }
        return style.contains("display:none") || style.contains("visibility:hidden") || style.contains("visibility:collapse")
    }

    /// Space-separated tokens (HTML §2.3.8), lower-cased.
    private static func words(_ value: String) -> [String] {
        value.lowercased().split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }.map(String.init)
    }

    /// Elements that cannot hold text.
    static func isVoid(_ name: String) -> Bool {
        switch name {
        case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
             "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext":
            true  // raw-text elements too: never the message, and kept off the stack
        default: false
        }
    }

    /// Elements that do not break a line, so add no space between words.
    static func isInline(_ name: String) -> Bool {
        switch name {
        case "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "label", "mark",
             "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var": true
        default: false
        }
    }

    /// A start tag that ends an open element without its end tag (HTML
    /// §13.1.2.4 optional end tags): a new `<p>` or a block ends a `<p>`, a
    /// new `<li>` an `<li>`.
    static func closesImplicitly(_ name: String, open: String) -> Bool {
        switch open {
        case "p":
            switch name {
            case "p", "div", "ul", "ol", "dl", "table", "form", "h1", "h2", "h3", "h4", "h5", "h6", "section",
                 "article", "aside", "header", "footer", "nav", "pre", "blockquote", "fieldset", "hr", "main":
                true
            default: false
            }
        case "li": name == "li"
        case "dt", "dd": name == "dt" || name == "dd"
        case "option": name == "option" || name == "optgroup"
        default: false
        }
    }
}
