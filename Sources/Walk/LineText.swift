import Core

/// Text as one line: every run of white space becomes one space, trimmed,
/// cut at `limit` characters. White space is any Unicode white space (line
/// and paragraph separators, no-break spaces), or with `asciiOnly` only
/// HTML's own (HTML §2.3.3), as in attribute values and labels.
package struct LineText {
    private(set) var result = ""
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

    mutating func append(_ piece: String) {
        for character in piece {
            if character.isWhitespace && (!asciiOnly || character.isASCII) {
                pendingSpace = count > 0
                continue
            }
            guard count < limit else { return }
            if pendingSpace {
                pendingSpace = false
                // A space is only worth its place if a character can follow it.
                guard count + 1 < limit else { count = limit; return }
                result.append(" ")
                count += 1
            }
            result.append(character)
            count += 1
        }
    }
}
