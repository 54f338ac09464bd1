// Small string helpers, so the product needs no CharacterSet (FoundationEssentials
// keeps the binary small and startup fast, ARCHITECTURE.md, "Constraints").
extension StringProtocol {
    /// Without leading and trailing spaces, tabs, CR and LF. Works on scalars:
    /// as a Character, "\r\n" is one grapheme and equals neither "\r" nor "\n".
    package var trimmed: String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
