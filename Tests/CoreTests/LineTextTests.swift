import Testing
@testable import Core

/// Core/ServerText/LineText.swift: the one place white space is folded,
/// with the three sets its callers have always used.
struct LineTextTests {
    @Test(arguments: [
        // A body's text (VisibleText): space, tab, CR and LF only.
        (LineText.Space.lineBreaksAndBlanks, " a\u{0B}b\u{0C}c  d\r\n\te\u{A0}f\u{2028}g ", "a\u{0B}b\u{0C}c d e\u{A0}f\u{2028}g"),
        // Labels and attribute values: ASCII white space.
        (.ascii, " a\u{0B}b\u{0C}c  d\r\n\te\u{A0}f\u{2028}g ", "a b c d e\u{A0}f\u{2028}g"),
        // Alerts: any white space.
        (.unicode, " a\u{0B}b\u{0C}c  d\r\n\te\u{A0}f\u{2028}g ", "a b c d e f g"),
        (.unicode, "", ""), (.unicode, " \n\t ", ""),
    ])
    func folds(space: LineText.Space, text: String, expected: String) {
        #expect(LineText.folding(text, space: space) == expected)
    }

    @Test func cutsAtTheLimitWithoutATrailingSpace() {
        var line = LineText(limit: 5)
        line.append("ab  cd efgh")
        #expect(line.result == "ab cd" && line.isFull)
        var spaced = LineText(limit: 3)
        spaced.append("ab  cd")
        #expect(spaced.result == "ab", "no space the limit leaves nothing after")
    }

    /// A body's visible text as error lines have always shown it.
    @Test(arguments: [
        ("plain  text\r\n\tnext\u{0B}line", false, "plain text next\u{0B}line"),
        ("<p>Hello&nbsp;<b>there</b></p>\n<script>x()</script><p> again </p>", true, "Hello there again"),
    ])
    func visibleText(body: String, html: Bool, expected: String) {
        #expect(VisibleText.of(Array(body.utf8), html: html) == expected)
    }
}
