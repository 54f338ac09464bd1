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
            let extra: StaticString = switch self {
            case .form: "*-._"
            case .unreserved: "-._~"
            case .component: "-._~!*'()"
            case .strict: "-._"
            case .uri: "-._~!*'();/?:@&=+$,#"
            }
            return extra.withUTF8Buffer { $0.contains(byte) }
        }
    }

    /// `%XX` for every byte `set` does not keep; space as `+` (form style)
    /// or `%20`; hex digits in either case (RFC 3986 §2.1 makes them equal).
    static func percent(_ text: String, set: PercentSet, spaceAsPlus: Bool, upperHex: Bool) -> String {
        var out = PercentEncoded(into: ByteCollector(capacity: text.utf8.count * 3), set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
        for byte in text.utf8 { out.put(byte) }
        return out.inner.string
    }

    /// A sink that percent-encodes what it is given on its way into
    /// `inner`; two of them nested encode twice.
    struct PercentEncoded<Inner: ByteSink>: ByteSink {
        var inner: Inner
        let set: PercentSet
        let spaceAsPlus: Bool
        let digits: StaticString

        init(into inner: Inner, set: PercentSet, spaceAsPlus: Bool, upperHex: Bool) {
            self.inner = inner
            self.set = set
            self.spaceAsPlus = spaceAsPlus
            digits = upperHex ? "0123456789ABCDEF" : "0123456789abcdef"
        }

        mutating func put(_ byte: UInt8) {
            if set.keeps(byte) {
                inner.put(byte)
            } else if byte == UInt8(ascii: " "), spaceAsPlus {
                inner.put(UInt8(ascii: "+"))
            } else {
                inner.put(UInt8(ascii: "%"))
                inner.put(digits.utf8Start[Int(byte >> 4)])
                inner.put(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
    }

    /// How an HTML escaper writes the quotes (`&`, `<`, `>` are always
    /// `&amp;` `&lt;` `&gt;`); nil leaves the character as it is.
    struct HTMLQuotes {
        let double: StaticString?
        let single: StaticString?
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
        var out = ByteCollector(capacity: text.utf8.count)
        html(text, quotes: quotes, into: &out)
        return out.string
    }

    static func html<Sink: ByteSink>(_ text: String, quotes: HTMLQuotes, into out: inout Sink) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.put(text: "&amp;")
            case "<": out.put(text: "&lt;")
            case ">": out.put(text: "&gt;")
            case "\"": if let double = quotes.double { out.put(text: double) } else { out.put(scalar: scalar) }
            case "'": if let single = quotes.single { out.put(text: single) } else { out.put(scalar: scalar) }
            case _ where quotes.numericNonASCII && !scalar.isASCII:
                out.put(text: "&#")
                putDecimal(scalar.value, into: &out)
                out.put(text: ";")
            default: out.put(scalar: scalar)
            }
        }
    }

    private static func putDecimal<Sink: ByteSink>(_ value: UInt32, into out: inout Sink) {
        if value >= 10 { putDecimal(value / 10, into: &out) }
        out.put(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Options of JSON string escaping (RFC 8259 §7), where serializers differ.
    struct JSONOptions: CaseIterable, Equatable {
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
        var out = ByteCollector(capacity: text.utf8.count)
        json(text, options: options, into: &out)
        return out.string
    }

    static func json<Sink: ByteSink>(_ text: String, options: JSONOptions, into out: inout Sink) {
        func unicodeEscape(_ value: UInt32) {
            let digits: StaticString = options.upperHex ? "0123456789ABCDEF" : "0123456789abcdef"
            out.put(text: "\\u")
            for shift in stride(from: 12, through: 0, by: -4) { out.put(digits.utf8Start[Int(value >> UInt32(shift) & 0xF)]) }
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.put(text: "\\\"")
            case "\\": out.put(text: "\\\\")
            case "/" where options.slash: out.put(text: "\\/")
            case "\u{08}": out.put(text: "\\b")
            case "\u{0C}": out.put(text: "\\f")
            case "\n": out.put(text: "\\n")
            case "\r": out.put(text: "\\r")
            case "\t": out.put(text: "\\t")
            // One `where` per case: in `case a, b where c` it guards only `b`.
            case _ where options.htmlSafe && ["<", ">", "&", "\u{2028}", "\u{2029}"].contains(scalar):
                unicodeEscape(scalar.value)
            case "'" where options.apostrophe: unicodeEscape(scalar.value)
            case _ where scalar.value < 0x20: unicodeEscape(scalar.value)
            case _ where options.nonASCII && scalar.value > 0xFFFF:
                let offset = scalar.value - 0x10000
                unicodeEscape(0xD800 + (offset >> 10))
                unicodeEscape(0xDC00 + (offset & 0x3FF))
            case _ where options.nonASCII && !scalar.isASCII: unicodeEscape(scalar.value)
            default: out.put(scalar: scalar)
            }
        }
    }
}
