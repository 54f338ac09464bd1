/// Server text made safe for a terminal: characters that a terminal would
/// act on instead of show are written as visible escapes. The one table of
/// such characters (`needsEscape`): every error line, `-v` trace line and
/// raw value authcode prints is judged here. A hostile page
/// could otherwise move the cursor, retitle the window or rewrite earlier
/// lines (ESC, C1 CSI U+009B), or make text read in another order than it
/// is stored with bidi overrides.
///
/// Escaped: C0 controls (U+0000–U+001F) as `\x1b`; DEL as `\x7f`; C1 controls
/// (U+0080–U+009F) and bidi embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069) as `\u202e`. Newline is kept by `escape` (multi-line text
/// such as a `-v` body) and escaped by `escapeLine` (an error line). Tab is
/// escaped too: it can hide text by jumping columns. Everything else,
/// non-ASCII letters and emoji included, is kept as is.
package enum TerminalText {
    /// Escapes every control but newline.
    package static func escape(_ text: String) -> String {
        escape(text, keepingNewline: true)
    }

    /// Escapes every control, newline included: the result is one line.
    package static func escapeLine(_ text: String) -> String {
        escape(text, keepingNewline: false)
    }

    /// Whether `escape` (or, without `allowingNewline`, `escapeLine`) would
    /// change `text`: a value printed raw, such as `--print access_token`,
    /// is refused instead of being altered.
    package static func containsControl(_ text: String, allowingNewline: Bool = false) -> Bool {
        text.unicodeScalars.contains { needsEscape($0, keepingNewline: allowingNewline) }
    }

    private static func escape(_ text: String, keepingNewline: Bool) -> String {
        guard containsControl(text, allowingNewline: keepingNewline) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingNewline: keepingNewline) {
                out.append(contentsOf: visible(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingNewline: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: !keepingNewline
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `\x1b` for one-byte controls, `\u0085` for the rest; lower-case hex.
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return scalar.value <= 0x7F
            ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
