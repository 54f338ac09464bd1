@testable import Core
import Testing

struct TextTrimmingTests {
    @Test(arguments: [
        ("  a b  ", "a b"), ("\r\n", ""), ("", ""), (" \t ", ""), ("\r\nHTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK"),
        ("é\t", "é"), (" \u{301}x", "\u{301}x"), ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"), ("x\r", "x"), ("a\r\n\r\nb", "a\r\n\r\nb"),
    ])
    func trimsSpacesTabsCRAndLFOnly(_ input: String, _ expected: String) {
        #expect(input.trimmed == expected)
        #expect(("[" + input + "]").dropFirst().dropLast().trimmed == expected, "a Substring")
    }
}
