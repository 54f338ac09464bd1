/// Text a server wrote, on its way into a message for the terminal.
///
/// Two things must happen to it, in this order: every secret scrubbed out,
/// then the text bounded (a hostile page cannot flood the terminal) and its
/// control characters escaped (`TerminalText`: it cannot repaint the
/// terminal). Bounding first could cut an echoed secret in half, and the
/// scrubber would no longer recognise the half that remains. So `printable`
/// only marks the text and its bound; `finished` applies them, and callers
/// that know the run's secrets scrub before calling it (`Redactor.finished`).
package enum ServerText {
    /// Interlinear annotation marks (U+FFF9-FFFB): never meaningful in a
    /// server's text, and removed from it before marking.
    static let start: Unicode.Scalar = "\u{FFF9}"
    static let separator: Unicode.Scalar = "\u{FFFA}"
    static let end: Unicode.Scalar = "\u{FFFB}"
    /// Kept beyond the bound until `finished`, so a long secret that starts
    /// before the bound is still whole when it is scrubbed.
    static let slack = 8_192

    /// The text, marked to be bounded to `limit` characters (then `…`) and
    /// escaped when the message is finished, where runs of CR, LF, tab and
    /// space become one space (a message is one line; only after scrubbing,
    /// since a secret may hold them).
    /// `html`: a response body, whose visible text (VisibleText.swift) is
    /// what will show.
    package static func printable(_ text: String, limit: Int = 300, html: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        out.append(start)
        out.append(contentsOf: (String(limit) + (html ? "h" : "")).unicodeScalars)
        out.append(separator)
        let cap = html ? text.unicodeScalars.count : limit + slack
        var kept = 0
        var inMarkHead = false  // text already marked: its `start limit separator` goes
        for scalar in text.unicodeScalars {
            if scalar == start { inMarkHead = true; continue }
            if scalar == separator { inMarkHead = false; continue }
            guard !inMarkHead, scalar != end else { continue }
            guard kept < cap else { break }
            out.append(scalar)
            kept += 1
        }
        out.append(end)
        return String(out)
    }

    /// The message as it may be shown: each marked text bounded, marks
    /// removed, every control character escaped visibly (one line).
    /// `scrub` runs again on each text once its tags and white space are
    /// gone (`a<b>c` or a line break can join an echoed secret back up).
    package static func finished(_ message: String, scrub: (String) -> String = { $0 }) -> String {
        guard message.unicodeScalars.contains(start) else { return TerminalText.escapeLine(message) }
        var out = ""
        var rest = Substring(message)
        while let open = rest.unicodeScalars.firstIndex(of: start) {
            out += rest[..<open]
            let afterOpen = rest.unicodeScalars.index(after: open)
            guard let close = rest.unicodeScalars[afterOpen...].firstIndex(of: end) else {
                rest = rest[afterOpen...]
                continue
            }
            let marked = rest.unicodeScalars[afterOpen..<close]
            if let split = marked.firstIndex(of: separator) {
                var head = String(marked[..<split])
                let html = head.hasSuffix("h")
                if html { head.removeLast() }
                if let limit = Int(head) {
                    let text = String(String.UnicodeScalarView(marked[marked.index(after: split)...]))
                    out += bounded(scrub(VisibleText.of(Array(text.utf8), html: html)), to: limit)
                }
            }
            rest = rest[rest.unicodeScalars.index(after: close)...]
        }
        out += rest
        return TerminalText.escapeLine(String(String.UnicodeScalarView(out.unicodeScalars.filter { $0 != start && $0 != separator && $0 != end })))
    }

    /// The first `limit` characters and `…`; a mask the cut would split
    /// (`[redac…`) is left out whole instead.
    static func bounded(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        var kept = text.prefix(limit)
        let rest = text.dropFirst(limit)
        let mask = Array(SecretScrubber.mask)
        for back in 1..<mask.count where kept.count >= back {
            let start = kept.index(kept.endIndex, offsetBy: -back)
            if Array(kept[start...]) == Array(mask.prefix(back)), rest.starts(with: mask.dropFirst(back)) {
                kept = kept[..<start]
                break
            }
        }
        return String(kept) + "…"
    }
}
