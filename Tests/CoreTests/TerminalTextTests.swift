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
    ])
    func escapesControls(text: String, expected: String) {
        #expect(TerminalText.escape(text) == expected)
    }

    @Test func escapeLineEscapesNewlineToo() {
        #expect(TerminalText.escapeLine("two\nlines\r\n") == "two\\x0alines\\x0d\\x0a")
        #expect(!TerminalText.escapeLine("a\nb\u{1B}").contains("\n"))
    }

    /// Ordinary text, non-ASCII included, comes back unchanged.
    @Test(arguments: ["", "plain ASCII ~!@#$%^&*()", "café é", "日本語のテキスト", "emoji 👩‍👩‍👧 🇫🇷", "العربية", "\u{A0}nbsp", "\u{200F}rlm", "back\\slash"])
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
