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
/// loses to a live region. An element holding an input is a field's
/// group, not its message. Entities decoded, every run of white space one
/// space, at most `limit` Unicode scalars.
///
/// Standing banners are context, not the error: a page that always shows
/// "served over an unsecured HTTP connection" (JupyterHub's login page) or a
/// maintenance notice shows it again after a wrong password. So the text
/// preferred is the best one that was not on the page before the
/// credentials were sent (`standing`: the texts of that page, from
/// `texts(in:)`); when every text was there before, the rules above alone
/// decide, and the same message seen twice is still reported.
///
/// Every pass is linear in the page: each token costs a constant number of
/// stack operations (OpenElements.swift), whatever the nesting.
package enum LoginErrorText {
    static let limit = 200
    /// Bounds on what a hostile page can make a pass hold: elements nested
    /// deeper are not tracked, and at most so many candidates are open at once.
    static let maxDepth = 4096
    static let maxOpenCandidates = 32
    /// At most so many texts of a page are remembered as standing.
    static let maxStanding = 256

    /// Better tiers have lower numbers.
    enum Tier: Int, Comparable {
        case liveRegion = 0, errorClass, errorID
        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    struct Candidate {
        var tier: Tier
        var start: Int
        var text = LineText(limit: LoginErrorText.limit)
    }

    private struct Open {
        var hidden: Bool
        /// Set on an element that may be the message.
        var candidate: Candidate?
    }

    /// The message a person reads, preferring one not in `standing`.
    static func find(in html: String, standing: Set<String> = []) -> String? {
        var steps = 0
        return find(in: html, standing: standing, steps: &steps)
    }

    /// `steps`: the work done, for the tests that prove it linear.
    static func find(in html: String, standing: Set<String>, steps: inout Int) -> String? {
        var best: (tier: Tier, start: Int, text: String)?
        var fallback: (tier: Tier, start: Int, text: String)?
        steps += scan(html, wanted: { tier in best.map { tier < $0.tier } ?? true },
                      settled: { openBefore in best.map { $0.tier == .liveRegion && !openBefore($0.start) } ?? false }) { found in
            let text = found.text.result
            let better: ((tier: Tier, start: Int, text: String)?) -> Bool = { current in
                current.map { (found.tier, found.start) < ($0.tier, $0.start) } ?? true
            }
            if standing.contains(text) {
                if better(fallback) { fallback = (found.tier, found.start, text) }
            } else if better(best) {
                best = (found.tier, found.start, text)
            }
        }
        return best?.text ?? fallback?.text
    }

    /// Every candidate text of a page (at most `maxStanding`): what was
    /// already there before the credentials went out.
    static func texts(in html: String) -> Set<String> {
        var steps = 0
        return texts(in: html, steps: &steps)
    }

    static func texts(in html: String, steps: inout Int) -> Set<String> {
        var texts: Set<String> = []
        steps += scan(html, wanted: { _ in texts.count < maxStanding }, settled: { _ in texts.count >= maxStanding }) { found in
            if texts.count < maxStanding { texts.insert(found.text.result) }
        }
        return texts
    }

    /// One pass over the page with a stack of open elements, each visible
    /// candidate collecting its text until its end tag (or an implied one).
    /// - Parameters:
    ///   - wanted: whether a candidate of this tier may still matter.
    ///   - settled: whether nothing can change the outcome any more, given
    ///     whether a live-region candidate that started before an offset is
    ///     still open.
    ///   - finish: each candidate with text, when it closes.
    /// - Returns: the work done (tokens, stack operations, text appends).
    private static func scan(_ html: String, wanted: (Tier) -> Bool, settled: ((Int) -> Bool) -> Bool,
                             finish: (Candidate) -> Void) -> Int {
        var tokenizer = HTMLTokenizer(html)
        var stack = OpenElements<Open>()
        /// Stack positions holding a candidate, bottom first.
        var collecting: [Int] = []
        var skipNextText = false
        var steps = 0

        func popTo(_ depth: Int) {
            while stack.count > depth {
                let element = stack.pop()
                guard let found = element.candidate else { continue }
                collecting.removeLast()
                if !found.text.isEmpty { finish(found) }
            }
        }
        func append(_ text: String) {
            for depth in collecting { steps += 1 + stack.update(depth) { $0.candidate?.text.append(text) ?? 0 } }
        }
        /// Whether an open live region started before `offset` (at most
        /// `maxOpenCandidates` to look at).
        func liveRegionOpen(before offset: Int) -> Bool {
            collecting.contains { stack[$0].candidate.map { $0.tier == .liveRegion && $0.start < offset } ?? false }
        }

        while let token = tokenizer.next() {
            steps += 1
            if settled(liveRegionOpen) { break }
            let textFollows = skipNextText
            skipNextText = false
            switch token {
            case .startTag(let tag):
                if let open = innermost(closedBy: tag.name, in: &stack), stack.onlyInlineAbove(open) {
                    popTo(open)
                }
                if isField(tag) {
                    // An element holding a field is the field's group (its
                    // label, its input, its message: Auth0's `ulp-error`
                    // wrapper), not the message; the message inside it
                    // stays a candidate.
                    for depth in collecting { stack.update(depth) { $0.candidate = nil } }
                    steps += collecting.count
                    collecting.removeAll()
                }
                if !isInline(tag.name) { append(" ") }
                // Their content is raw text: a textarea's value or the title is not the message.
                skipNextText = tag.name == "textarea" || tag.name == "title"
                guard !isVoid(tag.name), !tag.selfClosing, stack.count < maxDepth else { continue }
                let hidden = (stack.last?.hidden ?? false) || isHidden(tag)
                var element = Open(hidden: hidden, candidate: nil)
                if !hidden, collecting.count < maxOpenCandidates, let tier = tier(of: tag), wanted(tier) {
                    element.candidate = Candidate(tier: tier, start: tag.offset)
                    collecting.append(stack.count)
                }
                stack.push(element, name: tag.name, inline: isInline(tag.name))
            case .endTag(let name):
                if !isInline(name) { append(" ") }
                if let index = stack.lastIndex(named: name) { popTo(index) }
            case .text(let range):
                guard !collecting.isEmpty, !textFollows, stack.last?.hidden != true else { continue }
                append(tokenizer.text(range))
            }
        }
        popTo(0)
        return steps + stack.steps
    }

    /// The innermost open element that a start tag `name` ends without its
    /// end tag (HTML §13.1.2.4 optional end tags).
    private static func innermost(closedBy name: String, in stack: inout OpenElements<Open>) -> Int? {
        var found: Int?
        for open in implicitlyClosed(by: name) {
            if let index = stack.lastIndex(named: open), index > found ?? -1 { found = index }
        }
        return found
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

    /// An input a person fills in (not a button: an alert may hold its
    /// close button; not a hidden input).
    static func isField(_ tag: HTMLTag) -> Bool {
        guard tag.name == "input" else { return false }
        let type = tag["type"].map { HTMLWhitespace.trim($0).lowercased() } ?? "text"
        return !["hidden", "submit", "button", "image", "reset"].contains(type)
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

    /// The elements a start tag `name` ends without their end tag (HTML
    /// §13.1.2.4 optional end tags): a new `<p>` or a block ends a `<p>`, a
    /// new `<li>` an `<li>`.
    static func implicitlyClosed(by name: String) -> [String] {
        switch name {
        case "p", "div", "ul", "ol", "dl", "table", "form", "h1", "h2", "h3", "h4", "h5", "h6", "section",
             "article", "aside", "header", "footer", "nav", "pre", "blockquote", "fieldset", "hr", "main":
            ["p"]
        case "li": ["li"]
        case "dt", "dd": ["dt", "dd"]
        case "option", "optgroup": ["option"]
        default: []
        }
    }
}
