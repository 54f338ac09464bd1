/// Server text made safe for a terminal: characters that a terminal would
/// act on instead of show, or that fake or reorder a line, are written as
/// visible escapes. The one table of such characters (`needsEscape`): every
/// error line, `-v` trace line and raw value authcode prints is judged here.
/// A hostile page could otherwise move the cursor, retitle the window or
/// rewrite earlier lines (ESC, C1 CSI U+009B), start what reads as a new
/// `authcode: note:` line (U+2028 LINE SEPARATOR, U+2029 PARAGRAPH
/// SEPARATOR), make text read in another order than it is stored (bidi
/// controls), or hide text that is there (zero-width characters).
///
/// Escaped (README "Security"): C0 controls (U+0000–U+001F) as `\x1b`; DEL as
/// `\x7f`; C1 controls (U+0080–U+009F), U+2028 and U+2029, every
/// Bidi_Control character (U+061C ARABIC LETTER MARK, U+200E/U+200F LRM/RLM,
/// the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069)
/// and the invisible ones (U+200B–U+200D zero-width space, non-joiner and
/// joiner, U+2060–U+2064 word joiner and invisible operators, U+FEFF) as
/// `\u202e`. Newline is kept by `escape` (multi-line text such as a `-v`
/// body) and escaped by `escapeLine` (an error line). Tab is escaped too: it
/// can hide text by jumping columns. Everything else, non-ASCII letters and
/// emoji included, is kept as is.
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
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x200B...0x200D, 0x2060...0x2064, 0xFEFF: true
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
