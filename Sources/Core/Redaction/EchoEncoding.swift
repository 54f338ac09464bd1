/// The encoders servers run a value through before echoing it back: in a
/// URL, in an HTML page, in a JSON body. Each comes in the variants common
/// libraries produce, since a scrubber only finds the exact bytes it knows.
enum EchoEncoding {
    /// Which bytes a percent-encoder leaves alone, beyond ASCII letters and
    /// digits (RFC 3986 §2.1 lets the encoder choose; libraries differ).
    enum PercentSet: CaseIterable {
        case form        // application/x-www-form-urlencoded (WHATWG): * - . _
        case unreserved  // RFC 3986 §2.3 unreserved: - . _ ~
        case component   // JavaScript encodeURIComponent: - . _ ~ ! * ' ( )
        case strict      // - . _ only
        case uri         // JavaScript encodeURI: also the RFC 3986 §2.2 reserved set

        func keeps(_ byte: UInt8) -> Bool {
            if ASCII.isLetter(byte) || ASCII.isDigit(byte) { return true }
            let extra: String = switch self {
            case .form: "*-._"
            case .unreserved: "-._~"
            case .component: "-._~!*'()"
            case .strict: "-._"
            case .uri: "-._~!*'();/?:@&=+$,#"
            }
            return extra.utf8.contains(byte)
        }
    }

    /// `%XX` for every byte `set` does not keep; space as `+` (form style)
    /// or `%20`; hex digits in either case (RFC 3986 §2.1 makes them equal).
    static func percent(_ text: String, set: PercentSet, spaceAsPlus: Bool, upperHex: Bool) -> String {
        let digits = Array((upperHex ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if set.keeps(byte) {
                out.append(byte)
            } else if byte == UInt8(ascii: " "), spaceAsPlus {
                out.append(UInt8(ascii: "+"))
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How an HTML escaper writes the quotes (`&`, `<`, `>` are always
    /// `&amp;` `&lt;` `&gt;`); nil leaves the character as it is.
    struct HTMLQuotes {
        let double: String?
        let single: String?
        /// Non-ASCII as decimal references (`&#233;`), as ASCII-only output does.
        var numericNonASCII = false

        static let all: [HTMLQuotes] = [
            HTMLQuotes(double: nil, single: nil),                 // text content only
            HTMLQuotes(double: "&quot;", single: "&#x27;"),
            HTMLQuotes(double: "&#34;", single: "&#39;"),
            HTMLQuotes(double: "&quot;", single: "&#39;"),
            HTMLQuotes(double: "&quot;", single: "&#039;"),
            HTMLQuotes(double: "&quot;", single: "&apos;"),
            HTMLQuotes(double: "&#x22;", single: "&#x27;"),
            HTMLQuotes(double: "&quot;", single: nil),
            HTMLQuotes(double: "&#34;", single: "&#39;", numericNonASCII: true),
        ]
    }

    static func html(_ text: String, quotes: HTMLQuotes) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += quotes.double ?? "\""
            case "'": out += quotes.single ?? "'"
            case _ where quotes.numericNonASCII && !scalar.isASCII: out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Options of JSON string escaping (RFC 8259 §7), where serializers differ.
    struct JSONOptions: CaseIterable {
        var slash = false            // `\/`
        var nonASCII = false         // `\u00e9`, surrogate pairs above U+FFFF
        var htmlSafe = false         // `\u003c \u003e \u0026`, U+2028/U+2029
        var apostrophe = false       // `\u0027`
        var upperHex = false

        static let allCases: [JSONOptions] = (0..<32).map { bits in
            JSONOptions(slash: bits & 1 != 0, nonASCII: bits & 2 != 0, htmlSafe: bits & 4 != 0,
                        apostrophe: bits & 8 != 0, upperHex: bits & 16 != 0)
        }
    }

    static func json(_ text: String, options: JSONOptions) -> String {
        func unicodeEscape(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: options.upperHex)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where options.slash: out += "\\/"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // One `where` per case: in `case a, b where c` it guards only `b`.
            case _ where options.htmlSafe && ["<", ">", "&", "\u{2028}", "\u{2029}"].contains(scalar):
                out += unicodeEscape(scalar.value)
            case "'" where options.apostrophe: out += unicodeEscape(scalar.value)
            case _ where scalar.value < 0x20: out += unicodeEscape(scalar.value)
            case _ where options.nonASCII && scalar.value > 0xFFFF:
                let offset = scalar.value - 0x10000
                out += unicodeEscape(0xD800 + (offset >> 10)) + unicodeEscape(0xDC00 + (offset & 0x3FF))
            case _ where options.nonASCII && !scalar.isASCII: out += unicodeEscape(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
