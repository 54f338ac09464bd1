import Testing
@testable import Core

/// Server text in messages is scrubbed, then bounded and escaped (Core/ServerText/ServerText.swift).
struct ServerTextTests {
    static let secret = "S3cret-Value-42"

    /// A secret the 120-character bound would cut is masked whole first.
    @Test(arguments: Array(100...125))
    func secretAcrossTheBoundIsMaskedWhole(prefix: Int) {
        let redactor = Redactor()
        redactor.remember(Self.secret)
        let page = String(repeating: "a", count: prefix) + Self.secret + " and more text after it"
        let line = redactor.finished("unexpected 400 answer: " + ServerText.printable(page, limit: 120))
        #expect(!line.contains("S3c") && !line.contains("-42"), "\(line)")
        #expect(line.hasPrefix("unexpected 400 answer: " + String(repeating: "a", count: min(prefix, 120))))
        #expect(line.hasSuffix("…"))
        #expect(!line.contains("[redac…") && !line.contains("[redacted…"), "a mask is never cut: \(line)")
    }

    @Test func boundedAndEscapedOnlyWhenFinished() {
        let marked = "error=" + ServerText.printable("x\u{1B}[2J\nnext\u{202E}line", limit: 8) + " (place)"
        #expect(marked.contains("\u{1B}"), "marked text is still raw")
        #expect(ServerText.finished(marked) == "error=x\\x1b[2J ne… (place)")
    }

    @Test func textWithoutMarksIsEscapedAsOneLine() {
        #expect(ServerText.finished("plain\ttext\n\u{85}") == "plain\\x09text\\x0a\\u0085")
    }

    @Test func marksInsideServerTextAreDropped() {
        let nested = ServerText.printable("outer " + ServerText.printable("inner", limit: 2) + " \u{FFFB}end", limit: 300)
        #expect(ServerText.finished(nested) == "outer inner end")
        #expect(ServerText.finished("dangling \u{FFF9}12\u{FFFA}open") == "dangling 12open")
    }
}
