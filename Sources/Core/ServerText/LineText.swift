/// Text as one line: every run of white space becomes one space, trimmed,
/// cut at `limit` Unicode scalars (so at most 4 × `limit` bytes, however the
/// scalars combine). The one place white space is folded, for labels and
/// alerts a page shows (Walk) and for the text of a body an error line
/// quotes (VisibleText.swift).
///
/// Appending costs at most the scalars looked at before the line is full,
/// and nothing once it is: a pass may append every text of a page.
package struct LineText {
    /// What counts as white space.
    package enum Space {
        /// Any Unicode white space (line and paragraph separators, no-break spaces).
        case unicode
        /// ASCII white space only, as in HTML attribute values and labels
        /// (HTML §2.3.3).
        case ascii
        /// Space, tab, CR and LF only: a body's text as ServerText.swift
        /// finishes it.
        case lineBreaksAndBlanks

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .unicode: scalar.properties.isWhitespace
            case .ascii: scalar.isASCII && scalar.properties.isWhitespace
            case .lineBreaksAndBlanks: scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
            }
        }
    }

    private var scalars = String.UnicodeScalarView()
    private var count = 0
    private var pendingSpace = false
    private let limit: Int
    private let space: Space

    package init(limit: Int, space: Space = .unicode) {
        self.limit = limit
        self.space = space
    }

    package var isEmpty: Bool { count == 0 }
    package var isFull: Bool { count >= limit }
    package var result: String { String(scalars) }

    /// Returns how many scalars it looked at (for tests that count work).
    @discardableResult
    package mutating func append(_ piece: String) -> Int {
        guard count < limit else { return 0 }
        var looked = 0
        for scalar in piece.unicodeScalars {
            looked += 1
            if space.contains(scalar) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                pendingSpace = false
                // A space is only worth its place if a character can follow it.
                guard count + 1 < limit else { count = limit; return looked }
                scalars.append(" ")
                count += 1
            }
            scalars.append(scalar)
            count += 1
            if count >= limit { return looked }
        }
        return looked
    }

    /// `text` as one line, with no limit.
    package static func folding(_ text: String, space: Space) -> String {
        var line = LineText(limit: .max, space: space)
        line.append(text)
        return line.result
    }
}
