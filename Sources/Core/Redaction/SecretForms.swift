/// Every form in which a server may echo a secret back (RFC 6749 §10.3,
/// §10.12: codes, tokens and credentials must not leak), so that scrubbing
/// finds it in whatever it writes: raw; percent-encoded (RFC 3986 §2.1) the
/// ways libraries do, `+` or `%20` for space, either hex case, once or twice
/// (a URL carried inside another URL's parameter); HTML-escaped; JSON-escaped
/// (RFC 8259 §7); base64 (RFC 4648 §4, §5).
///
/// Chosen once per secret, as names (`EchoForm`): a form is written only
/// when asked for, so a long secret is never held in dozens of copies
/// (README "Security"; SecretScrubber.swift measures long forms in a pass).
package struct SecretForms: Sendable {
    /// Shorter text turns up by chance in ordinary output (RFC 4226 §5.3
    /// codes start at 6 digits), and masking it would hide more than it protects.
    package static let minimumLength = 4

    let secret: String
    /// The encodings that can differ for this secret; two may still give
    /// the same form (the scrubber and `forms` keep one).
    let variants: [EchoForm]

    package init(_ secret: String) {
        self.secret = secret
        var variants: [EchoForm] = [.raw]
        // Only the variants that can differ for this secret are listed: an
        // option that touches no byte of it gives a form already in the list,
        // and a session's dozen secrets (cookies, tokens, codes) are mostly
        // letters and digits. `SecretFormsTests` checks the result against
        // every variant written out.
        var bytes = Set<UInt8>()
        for byte in secret.utf8 { bytes.insert(byte) }
        let space = UInt8(ascii: " ")
        if bytes.contains(where: { !EchoEncoding.PercentSet.strict.keeps($0) }) {
            let spaces = bytes.contains(space) ? [true, false] : [false]
            for set in EchoEncoding.PercentSet.allCases {
                for spaceAsPlus in spaces {
                    // Encoding once more writes a `%` when the first pass left
                    // a byte the set does not keep: a `%XX`, or the `+` of a space.
                    let escapes = bytes.contains { !set.keeps($0) && !($0 == space && spaceAsPlus) }
                    let twiceHasPercent = escapes || (spaceAsPlus && bytes.contains(space) && !set.keeps(UInt8(ascii: "+")))
                    for upperHex in [false, true] {
                        variants.append(.percent(set, spaceAsPlus: spaceAsPlus, upperHex: upperHex, twice: false))
                        variants.append(.percent(set, spaceAsPlus: spaceAsPlus, upperHex: upperHex, twice: true))
                        // Without a %XX written the case of hex digits changes nothing.
                        if !twiceHasPercent { break }
                    }
                }
            }
        }
        let nonASCII = bytes.contains { $0 >= 0x80 }
        // The quote styles differ only on quotes and non-ASCII; `& < >` are
        // written one way by all.
        if nonASCII || bytes.contains(UInt8(ascii: "\"")) || bytes.contains(UInt8(ascii: "'")) {
            variants += EchoEncoding.HTMLQuotes.all.map { .html($0) }
        } else if bytes.contains(UInt8(ascii: "&")) || bytes.contains(UInt8(ascii: "<")) || bytes.contains(UInt8(ascii: ">")) {
            variants.append(.html(EchoEncoding.HTMLQuotes.all[0]))
        }
        variants += Self.jsonVariants(secret, bytes: bytes, nonASCII: nonASCII)
        variants += [.base64Padded, .base64Unpadded, .base64URL]
        self.variants = variants
    }

    /// Distinct forms, longest (in UTF-8 bytes) first, each written out:
    /// for the tests, and for secrets short enough to index whole.
    package var forms: [String] {
        var seen: Set<String> = []
        return variants.map { $0.text(of: secret) }
            .filter { seen.insert($0).inserted && $0.count >= Self.minimumLength }
            .sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The JSON escapings (`EchoEncoding.JSONOptions`) whose options apply
    /// to this secret: `\/` needs a slash, the HTML-safe escapes one of
    /// `< > &` U+2028 U+2029, and so on; the hex case matters only where
    /// a `\u` escape is written (a control character, or an option that
    /// escapes a byte the secret has).
    private static func jsonVariants(_ secret: String, bytes: Set<UInt8>, nonASCII: Bool) -> [EchoForm] {
        let htmlSafe = bytes.contains { "<>&".utf8.contains($0) } || secret.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }
        let control = bytes.contains { $0 < 0x20 && !"\u{08}\u{0C}\n\r\t".utf8.contains($0) }
        let apostrophe = bytes.contains(UInt8(ascii: "'"))
        // Plain JSON escaping touches only `"`, `\` and controls: without
        // them it writes the raw form again (a token, a code).
        let escaped = bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        var variants: [EchoForm] = []
        for options in EchoEncoding.JSONOptions.allCases {
            guard !options.upperHex, escaped || options != EchoEncoding.JSONOptions(),
                  !options.slash || bytes.contains(UInt8(ascii: "/")),
                  !options.nonASCII || nonASCII,
                  !options.htmlSafe || htmlSafe,
                  !options.apostrophe || apostrophe else { continue }
            variants.append(.json(options))
            if control || options.nonASCII || options.htmlSafe || options.apostrophe {
                var upper = options
                upper.upperHex = true
                variants.append(.json(upper))
            }
        }
        return variants
    }
}
