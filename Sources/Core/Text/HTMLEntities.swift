/// HTML character references (`&amp;`, `&#38;`, `&#x26;`), decoded the way
/// browsers do (HTML §13.2.5.72), so that a hidden field's value or a form's
/// action reaches the server exactly as a browser would have sent it, and
/// the text of a page quoted in an error line reads as a browser shows it
/// (VisibleText.swift).
///
/// Works on UTF-8 bytes: the tokenizer hands over byte ranges, and slicing at
/// ASCII delimiters keeps the bytes valid UTF-8.
package enum HTMLEntities {
    /// Decodes `bytes[range]`. In attribute values a legacy reference without
    /// `;` followed by a letter, digit or `=` is left alone, so that
    /// `?a=1&copy=2` in an action keeps its `&copy` (HTML §13.2.5.73).
    package static func decode(_ bytes: [UInt8], _ range: Range<Int>, inAttribute: Bool) -> String {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        // Fast path: most values hold no `&` at all.
        guard bytes[lower..<upper].contains(ampersand) else {
            return String(decoding: bytes[lower..<upper], as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(upper - lower)
        var i = lower
        while i < upper {
            let byte = bytes[i]
            if byte == ampersand, let (scalar, length) = reference(bytes, at: i, end: upper, inAttribute: inAttribute) {
                appendUTF8(scalar, to: &out)
                i += length
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes the references in a whole string (text rules).
    package static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return decode(bytes, 0..<bytes.count, inAttribute: false)
    }

    private static let ampersand = UInt8(ascii: "&")
    private static let semicolon = UInt8(ascii: ";")
    /// Longer runs of letters cannot be a name in our tables; stop looking.
    private static let longestName = 32

    /// The reference starting at `start` (an `&`): the scalar and how many
    /// bytes it used, or nil when it is not a reference we know.
    private static func reference(_ bytes: [UInt8], at start: Int, end: Int, inAttribute: Bool) -> (Unicode.Scalar, Int)? {
        let next = start + 1
        guard next < end else { return nil }
        if bytes[next] == UInt8(ascii: "#") {
            return numeric(bytes, at: start, end: end)
        }
        var nameEnd = next
        while nameEnd < end, nameEnd - next < longestName, isAlphanumeric(bytes[nameEnd]) {
            nameEnd += 1
        }
        guard nameEnd > next else { return nil }
        if nameEnd < end, bytes[nameEnd] == semicolon,
           let scalar = lookup(bytes[next..<nameEnd], semicolonTerminated: true) {
            return (scalar, nameEnd + 1 - start)
        }
        // Without `;` only the legacy names count, longest prefix first.
        var candidateEnd = min(nameEnd, next + 6)
        while candidateEnd > next {
            if let scalar = lookup(bytes[next..<candidateEnd], semicolonTerminated: false) {
                let following: UInt8? = candidateEnd < end ? bytes[candidateEnd] : nil
                if inAttribute, let following, isAlphanumeric(following) || following == UInt8(ascii: "=") {
                    return nil
                }
                return (scalar, candidateEnd - start)
            }
            candidateEnd -= 1
        }
        return nil
    }

    /// `&#38;` and `&#x26;`; the `;` is optional, as in browsers.
    private static func numeric(_ bytes: [UInt8], at start: Int, end: Int) -> (Unicode.Scalar, Int)? {
        var i = start + 2
        var hex = false
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "x") {
            hex = true
            i += 1
        }
        let digitsStart = i
        var value: UInt32 = 0
        while i < end, let digit = digitValue(bytes[i], hex: hex) {
            // Saturate: anything past U+10FFFF is replaced anyway.
            value = min(value &* (hex ? 16 : 10) &+ digit, 0x110000)
            i += 1
        }
        guard i > digitsStart else { return nil }
        if i < end, bytes[i] == semicolon { i += 1 }
        return (scalar(forCodePoint: value), i - start)
    }

    /// What a browser substitutes for a numeric reference (HTML §13.2.5.80).
    private static func scalar(forCodePoint value: UInt32) -> Unicode.Scalar {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        if value == 0 || value > 0x10FFFF { return replacement }
        if (0x80...0x9F).contains(value) {
            let mapped = windows1252[Int(value - 0x80)]
            return Unicode.Scalar(mapped) ?? replacement
        }
        return Unicode.Scalar(value) ?? replacement  // nil for surrogates
    }

    /// C1 controls are read as windows-1252, as browsers do.
    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func lookup(_ name: ArraySlice<UInt8>, semicolonTerminated: Bool) -> Unicode.Scalar? {
        let key = String(decoding: name, as: UTF8.self)
        if let value = legacy[key] { return Unicode.Scalar(value) }
        if semicolonTerminated, let value = modern[key] { return Unicode.Scalar(value) }
        return nil
    }

    /// Names browsers also accept without `;` (the HTML 4 Latin-1 set and the
    /// four XML ones).
    private static let legacy: [String: UInt32] = [
        "amp": 0x26, "AMP": 0x26, "lt": 0x3C, "LT": 0x3C, "gt": 0x3E, "GT": 0x3E,
        "quot": 0x22, "QUOT": 0x22, "nbsp": 0xA0, "copy": 0xA9, "COPY": 0xA9,
        "reg": 0xAE, "REG": 0xAE, "iexcl": 0xA1, "cent": 0xA2, "pound": 0xA3,
        "curren": 0xA4, "yen": 0xA5, "brvbar": 0xA6, "sect": 0xA7, "uml": 0xA8,
        "ordf": 0xAA, "laquo": 0xAB, "not": 0xAC, "shy": 0xAD, "macr": 0xAF,
        "deg": 0xB0, "plusmn": 0xB1, "sup2": 0xB2, "sup3": 0xB3, "acute": 0xB4,
        "micro": 0xB5, "para": 0xB6, "middot": 0xB7, "cedil": 0xB8, "sup1": 0xB9,
        "ordm": 0xBA, "raquo": 0xBB, "frac14": 0xBC, "frac12": 0xBD, "frac34": 0xBE,
        "iquest": 0xBF, "Agrave": 0xC0, "Aacute": 0xC1, "Acirc": 0xC2, "Atilde": 0xC3,
        "Auml": 0xC4, "Aring": 0xC5, "AElig": 0xC6, "Ccedil": 0xC7, "Egrave": 0xC8,
        "Eacute": 0xC9, "Ecirc": 0xCA, "Euml": 0xCB, "Igrave": 0xCC, "Iacute": 0xCD,
        "Icirc": 0xCE, "Iuml": 0xCF, "ETH": 0xD0, "Ntilde": 0xD1, "Ograve": 0xD2,
        "Oacute": 0xD3, "Ocirc": 0xD4, "Otilde": 0xD5, "Ouml": 0xD6, "times": 0xD7,
        "Oslash": 0xD8, "Ugrave": 0xD9, "Uacute": 0xDA, "Ucirc": 0xDB, "Uuml": 0xDC,
        "Yacute": 0xDD, "THORN": 0xDE, "szlig": 0xDF, "agrave": 0xE0, "aacute": 0xE1,
        "acirc": 0xE2, "atilde": 0xE3, "auml": 0xE4, "aring": 0xE5, "aelig": 0xE6,
        "ccedil": 0xE7, "egrave": 0xE8, "eacute": 0xE9, "ecirc": 0xEA, "euml": 0xEB,
        "igrave": 0xEC, "iacute": 0xED, "icirc": 0xEE, "iuml": 0xEF, "eth": 0xF0,
        "ntilde": 0xF1, "ograve": 0xF2, "oacute": 0xF3, "ocirc": 0xF4, "otilde": 0xF5,
        "ouml": 0xF6, "divide": 0xF7, "oslash": 0xF8, "ugrave": 0xF9, "uacute": 0xFA,
        "ucirc": 0xFB, "uuml": 0xFC, "yacute": 0xFD, "thorn": 0xFE, "yuml": 0xFF,
    ]

    /// Names that need their `;`: common typography and the punctuation
    /// names some escapers use inside URLs (`&sol;`, `&equals;`).
    private static let modern: [String: UInt32] = [
        "apos": 0x27, "Tab": 0x09, "NewLine": 0x0A, "excl": 0x21, "num": 0x23,
        "dollar": 0x24, "percnt": 0x25, "lpar": 0x28, "rpar": 0x29, "ast": 0x2A,
        "plus": 0x2B, "comma": 0x2C, "period": 0x2E, "sol": 0x2F, "colon": 0x3A,
        "semi": 0x3B, "equals": 0x3D, "quest": 0x3F, "commat": 0x40, "lsqb": 0x5B,
        "bsol": 0x5C, "rsqb": 0x5D, "Hat": 0x5E, "lowbar": 0x5F, "grave": 0x60,
        "lcub": 0x7B, "verbar": 0x7C, "rcub": 0x7D, "OElig": 0x152, "oelig": 0x153,
        "Scaron": 0x160, "scaron": 0x161, "Yuml": 0x178, "fnof": 0x192, "circ": 0x2C6,
        "tilde": 0x2DC, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009,
        "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F, "ndash": 0x2013,
        "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A,
        "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E, "dagger": 0x2020,
        "Dagger": 0x2021, "bull": 0x2022, "hellip": 0x2026, "permil": 0x2030,
        "lsaquo": 0x2039, "rsaquo": 0x203A, "euro": 0x20AC, "trade": 0x2122,
        "larr": 0x2190, "uarr": 0x2191, "rarr": 0x2192, "darr": 0x2193,
    ]

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }
}
