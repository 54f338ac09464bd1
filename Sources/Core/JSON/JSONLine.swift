/// A JSON document that parsed, written as one line for stdout (`--print
/// claims`, `--print userinfo`): the line breaks and indentation between
/// tokens dropped (a JSON string cannot hold a raw line break, RFC 8259
/// §7), a tab between tokens made a space, and every character a terminal
/// would act on that a string may hold raw — DEL, C1 controls, bidi
/// overrides (TerminalText.swift) — written as its `\u` escape. Any parser
/// reads the same value; values, key order and the escapes already there
/// are kept.
package enum JSONLine {
    package static func of(_ document: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var inString = false
        var escaped = false
        var afterBreak = false
        for scalar in String(decoding: document, as: UTF8.self).unicodeScalars {
            if inString {
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                }
                if TerminalText.containsControl(String(scalar)) {
                    let hex = String(scalar.value, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
                } else {
                    out.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\n", "\r":
                afterBreak = true
            case " ", "\t":
                if !afterBreak { out.append(" ") }
            default:
                afterBreak = false
                if scalar == "\"" { inString = true }
                out.append(scalar)
            }
        }
        return String(String(out).trimmed)
    }
}
