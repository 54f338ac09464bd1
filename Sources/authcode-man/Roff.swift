/// Text made safe for roff (man(7)): a backslash is `\e`, a dash in an
/// option name `\-` (so it copies as the ASCII minus a shell needs), a line
/// never starts with a control character, and what is not ASCII is a named
/// glyph or `\[uXXXX]`, so the page is plain ASCII for every formatter.
enum Roff {
    static func text(_ text: String) -> String {
        var out = ""
        // Inside a word that starts with '-' (an option), every '-' is a minus.
        var inOption = false
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if scalar == "-" && " (\"'`/".unicodeScalars.contains(previous) { inOption = true }
            if scalar == " " || scalar == "," || scalar == ")" { inOption = false }
            previous = scalar
            switch scalar {
            case "-" where inOption: out += "\\-"
            case "\\": out += "\\e"
            case "—": out += "\\(em"
            case "–": out += "\\(en"
            case "…": out += "..."
            case "→": out += "\\(->"
            case "‘", "’": out += "'"
            case "“": out += "\\(lq"
            case "”": out += "\\(rq"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        // A line starting with '.' or '\'' would be read as a request.
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// An option or command name: every '-' a minus sign.
    static func name(_ text: String) -> String {
        Self.text(text).replacing("\\-", with: "-").replacing("-", with: "\\-")
    }

    /// `\fBbold\fR`.
    static func bold(_ text: String) -> String { "\\fB" + text + "\\fR" }

    /// `\fIitalic\fR`.
    static func italic(_ text: String) -> String { "\\fI" + text + "\\fR" }

    /// Roff text as input lines of at most 80 bytes (mandoc's style
    /// limit), broken between words; no line starts with a control character.
    static func filled(_ roff: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in roff.split(separator: " ") {
            if !line.isEmpty && line.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }.joined(separator: "\n")
    }
}
