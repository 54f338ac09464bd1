/// A button label or a field name as lower-cased words, split at
/// non-letters and at camelCase humps (`signIn` → sign, in), read only as far
/// as `limit` characters: a label is short, a hostile one need not be read
/// whole. Used to tell an Allow button from a Deny one and to spot a
/// one-time-code field.
enum LabelWords {
    /// - Parameter digitsEndAHump: whether a digit, like a lower-case letter,
    ///   lets a following capital start a new word (`otp2Code` → otp2, code).
    static func split(_ text: String, limit: Int = 200, digitsEndAHump: Bool = false) -> [String] {
        var words: [String] = []
        var word = ""
        var previousWasLower = false
        for character in text.prefix(limit) {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word) }
                word = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower, !word.isEmpty {
                words.append(word)
                word = ""
            }
            word += character.lowercased()
            previousWasLower = character.isLowercase || (digitsEndAHump && character.isNumber)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
