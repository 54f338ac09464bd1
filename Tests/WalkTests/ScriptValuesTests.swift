import Testing
@testable import Core
@testable import Walk

/// Values read out of a page's inline script without running it
/// (Walk/Drivers/ScriptValues.swift): string literals decoded as
/// ECMA-262 §12.9.4 says, JSON objects cut at their own closing brace.
struct ScriptValuesTests {
    @Test(arguments: [
        (#"var stateToken = '02ab\x2Dcd\x2Fef';"#, "var stateToken =", "02ab-cd/ef"),
        (#"{"stateToken":"00\u002Dx\"y\\z"}"#, "\"stateToken\":", #"00-x"y\z"#),
        (#"window.atob('eyJh\'Ij') + 1"#, "window.atob(", "eyJh'Ij"),
        (#"var s = "\uD83D\uDE00 \u{1F600} \n";"#, "var s =", "😀 😀 \n"),
        ("var s = 'caf\u{00E9}';", "var s =", "café"),
    ])
    func stringLiterals(text: String, marker: String, expected: String) {
        #expect(ScriptValues.string(after: marker, in: text) == expected)
    }

    @Test(arguments: [
        ("var stateToken = 02;", "var stateToken ="),
        ("var s = 'never closed", "var s ="),
        ("var s = 'bad \\x4';", "var s ="),
        ("var s = 'line\nbreak';", "var s ="),
        ("nothing here", "var s ="),
    ])
    func notAStringLiteral(text: String, marker: String) {
        #expect(ScriptValues.string(after: marker, in: text) == nil)
    }

    @Test func anObjectEndsAtItsOwnBraceWhateverTheStringsHold() {
        let text = #"$Config={"a":"}{\"}","b":{"c":[1,2]}};var x = {"d":1};"#
        #expect(ScriptValues.object(after: "$Config=", in: text)
                == .object(["a": .string(#"}{"}"#), "b": .object(["c": .array([.number(1), .number(2)])])]))
        #expect(ScriptValues.object(after: "$Config=", in: "$Config={a:1};") == nil, "JavaScript that is not JSON")
        #expect(ScriptValues.object(after: "$Config=", in: "$Config={\"a\":1") == nil, "never closed")
        #expect(ScriptValues.object(after: "$Config=", in: "$Config=[1]") == nil)
    }
}
