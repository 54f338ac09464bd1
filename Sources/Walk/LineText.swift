import Core

/// Text as one line: every run of white space becomes one space, trimmed,
/// cut at `limit` Unicode scalars (so at most 4 × `limit` bytes, however the
/// scalars combine). White space is any Unicode white space (line and
/// paragraph separators, no-break spaces), or with `asciiOnly` only HTML's
/// own (HTML §2.3.3), as in attribute values and labels.
///
/// Appending costs at most the scalars looked at before the line is full,
/// and nothing once it is: a pass may append every text of a page.
package struct LineText {
    private var scalars = String.UnicodeScalarView()
    private var count = 0
    private var pendingSpace = false
    private let limit: Int
    private let asciiOnly: Bool

    init(limit: Int, asciiOnly: Bool = false) {
        self.limit = limit
        self.asciiOnly = asciiOnly
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count >= limit }
    var result: String { String(scalars) }

    /// Returns how many scalars it looked at (for tests that count work).
    @discardableResult
    mutating func append(_ piece: String) -> Int {
        guard count < limit else { return 0 }
        var looked = 0
        for scalar in piece.unicodeScalars {
            looked += 1
            if scalar.properties.isWhitespace && (!asciiOnly || scalar.isASCII) {
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
}
