/// Every form in which a server may echo a secret back (RFC 6749 §10.3,
/// §10.12: codes, tokens and credentials must not leak), so that scrubbing
/// finds it in whatever it writes: raw; percent-encoded (RFC 3986 §2.1) the
/// ways libraries do, `+` or `%20` for space, either hex case, once or twice
/// (a URL carried inside another URL's parameter); HTML-escaped; JSON-escaped
/// (RFC 8259 §7); base64 (RFC 4648 §4, §5). Computed once per secret.
package struct SecretForms: Sendable {
    /// Shorter text turns up by chance in ordinary output (RFC 4226 §5.3
    /// codes start at 6 digits), and masking it would hide more than it protects.
    package static let minimumLength = 4

    /// Distinct forms, longest (in UTF-8 bytes) first.
    package let forms: [String]

    package init(_ secret: String) {
        var forms: [String] = [secret]
        // Only the variants that can differ for this secret are computed: an
        // option that touches no byte of it gives a form already in the list,
        // and a session's dozen secrets (cookies, tokens, codes) are mostly
        // letters and digits. `SecretFormsTests` checks the result against
        // every variant written out.
        let bytes = Array(secret.utf8)
        if bytes.contains(where: { !EchoEncoding.PercentSet.strict.keeps($0) }) {
            let spaces = bytes.contains(UInt8(ascii: " ")) ? [true, false] : [false]
            for set in EchoEncoding.PercentSet.allCases {
                for spaceAsPlus in spaces {
                    for upperHex in [false, true] {
                        let once = EchoEncoding.percent(secret, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                        let twice = EchoEncoding.percent(once, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                        forms += [once, twice]
                        // Without a %XX written the case of hex digits changes nothing.
                        if !twice.utf8.contains(UInt8(ascii: "%")) { break }
                    }
                }
            }
        }
        let nonASCII = bytes.contains { $0 >= 0x80 }
        // The quote styles differ only on quotes and non-ASCII; `& < >` are
        // written one way by all.
        if nonASCII || bytes.contains(where: { "\"'".utf8.contains($0) }) {
            for quotes in EchoEncoding.HTMLQuotes.all {
                forms.append(EchoEncoding.html(secret, quotes: quotes))
            }
        } else if bytes.contains(where: { "&<>".utf8.contains($0) }) {
            forms.append(EchoEncoding.html(secret, quotes: EchoEncoding.HTMLQuotes.all[0]))
        }
        forms += Self.jsonForms(secret, bytes: bytes, nonASCII: nonASCII)
        let padded = Base64URL.encodeStandard(bytes)
        forms.append(padded)
        forms.append(String(padded.prefix { $0 != "=" }))
        forms.append(Base64URL.encode(bytes))

        var seen: Set<String> = []
        self.forms = forms
            .filter { seen.insert($0).inserted && $0.count >= Self.minimumLength }
            .sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The JSON escapings (`EchoEncoding.JSONOptions`) whose options apply
    /// to this secret: `\/` needs a slash, the HTML-safe escapes one of
    /// `< > &` U+2028 U+2029, and so on; the hex case matters only where
    /// a `\u` escape was written.
    private static func jsonForms(_ secret: String, bytes: [UInt8], nonASCII: Bool) -> [String] {
        let htmlSafe = bytes.contains { "<>&".utf8.contains($0) } || secret.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }
        var forms: [String] = []
        for options in EchoEncoding.JSONOptions.allCases {
            guard !options.upperHex,
                  !options.slash || bytes.contains(UInt8(ascii: "/")),
                  !options.nonASCII || nonASCII,
                  !options.htmlSafe || htmlSafe,
                  !options.apostrophe || bytes.contains(UInt8(ascii: "'")) else { continue }
            let lower = EchoEncoding.json(secret, options: options)
            forms.append(lower)
            if ASCII.contains(lower, bytes: "\\u") {
                var upper = options
                upper.upperHex = true
                forms.append(EchoEncoding.json(secret, options: upper))
            }
        }
        return forms
    }
}
