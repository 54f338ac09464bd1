@testable import Core
import Testing

struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}[2J", "\\x1b[2J"),                       // ESC: clear screen
        ("a\u{0}b", "a\\x00b"),
        ("tab\there", "tab\\x09here"),
        ("cr\rover", "cr\\x0dover"),
        ("bell\u{7}", "bell\\x07"),
        ("\u{1F}", "\\x1f"),
        ("del\u{7F}", "del\\x7f"),
        ("csi\u{9B}31m", "csi\\u009b31m"),               // C1 CSI
        ("nel\u{85}", "nel\\u0085"),
        ("\u{80}\u{9F}", "\\u0080\\u009f"),
        ("abc\u{202E}fed", "abc\\u202efed"),             // right-to-left override
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u202a\\u202b\\u202c\\u202d"),
        ("\u{2066}x\u{2067}y\u{2068}z\u{2069}", "\\u2066x\\u2067y\\u2068z\\u2069"),
        ("two\nlines", "two\nlines"),
        // Lines a server can fake (ARCHITECTURE "Security rules"): a line or paragraph
        // separator that starts what reads as a new line, every other
        // Bidi_Control character, and the invisible ones.
        ("ok\u{2028}authcode: note: fine", "ok\\u2028authcode: note: fine"),
        ("ok\u{2029}p", "ok\\u2029p"),
        ("\u{061C}\u{200E}\u{200F}", "\\u061c\\u200e\\u200f"),
        ("a\u{200B}b\u{200C}c\u{200D}d", "a\\u200bb\\u200cc\\u200dd"),
        ("\u{2060}\u{2061}\u{2062}\u{2063}\u{2064}", "\\u2060\\u2061\\u2062\\u2063\\u2064"),
        ("\u{FEFF}bom", "\\ufeffbom"),
        ("family 👩\u{200D}👧", "family 👩\\u200d👧"),
    ])
    func escapesControls(text: String, expected: String) {
        #expect(TerminalText.escape(text) == expected)
    }

    @Test func escapeLineEscapesNewlineToo() {
        #expect(TerminalText.escapeLine("two\nlines\r\n") == "two\\x0alines\\x0d\\x0a")
        #expect(!TerminalText.escapeLine("a\nb\u{1B}").contains("\n"))
    }

    /// Ordinary text, non-ASCII included, comes back unchanged.
    @Test(arguments: ["", "plain ASCII ~!@#$%^&*()", "café é", "日本語のテキスト", "emoji 😀 🇫🇷 👍🏽", "العربية", "\u{A0}nbsp", "back\\slash",
                      "\u{2027}\u{202F}\u{2065}\u{2070}\u{FEFE}\u{FF00}"])
    func keepsOrdinaryText(text: String) {
        #expect(TerminalText.escape(text) == text)
        #expect(TerminalText.escapeLine(text) == text)
        #expect(!TerminalText.containsControl(text))
    }

    @Test func containsControl() {
        #expect(TerminalText.containsControl("eyJ\u{1B}"))
        #expect(TerminalText.containsControl("a\nb"))
        #expect(!TerminalText.containsControl("a\nb", allowingNewline: true))
        #expect(TerminalText.containsControl("a\u{202E}b", allowingNewline: true))
        #expect(TerminalText.containsControl("\u{85}"))
    }

    /// "\r\n" is one Character: the escape works on scalars, so it is seen.
    @Test func crlfGraphemeIsSeen() {
        #expect(TerminalText.escape("a\r\nb") == "a\\x0d\nb")
    }
}
