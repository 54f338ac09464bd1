import Testing
@testable import Core

/// `--print claims` and `--print userinfo`: the document on one line, the
/// same JSON value, with nothing a terminal would act on left raw.
struct JSONLineTests {
    @Test(arguments: [
        (#"{"a":1,"b":"x"}"#, #"{"a":1,"b":"x"}"#),
        ("{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n", #"{"a": 1,"b": [2]}"#),
        ("{\r\n\t\"a\":\t1}", "{\"a\": 1}"),
        (#"{"s":"a\nb \" \\ \u001b"}"#, #"{"s":"a\nb \" \\ \u001b"}"#),
        ("{\"s\":\"\u{202E}evil\u{7F}\u{9B}\"}", #"{"s":"\u202eevil\u007f\u009b"}"#),
        ("{\"s\":\"Zoë 😀\"}", "{\"s\":\"Zoë 😀\"}"),
        ("{\"s\":\"\\\\\",\"t\":\"\u{2066}\"}", #"{"s":"\\","t":"\u2066"}"#),
    ])
    func oneLine(document: String, line: String) {
        #expect(JSONLine.of(Array(document.utf8)) == line)
        #expect(!TerminalText.containsControl(JSONLine.of(Array(document.utf8))))
    }

    /// JSONText (`--print code`'s strings) escapes what a terminal acts on.
    @Test func jsonTextEscapesTerminalControls() {
        #expect(JSONText.quote("a\u{7F}b\u{85}c\u{2066}d\u{1B}é") == #""a\u007fb\u0085c\u2066d\u001bé""#)
    }
}
