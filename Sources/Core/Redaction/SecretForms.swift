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
        for set in EchoEncoding.PercentSet.allCases {
            for spaceAsPlus in [true, false] {
                for upperHex in [true, false] {
                    let once = EchoEncoding.percent(secret, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                    forms.append(once)
                    forms.append(EchoEncoding.percent(once, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex))
                }
            }
        }
        for quotes in EchoEncoding.HTMLQuotes.all {
            forms.append(EchoEncoding.html(secret, quotes: quotes))
        }
        for options in EchoEncoding.JSONOptions.allCases {
            forms.append(EchoEncoding.json(secret, options: options))
        }
        let bytes = Array(secret.utf8)
        let padded = Base64URL.encodeStandard(bytes)
        forms.append(padded)
        forms.append(String(padded.prefix { $0 != "=" }))
        forms.append(Base64URL.encode(bytes))

        var seen: Set<String> = []
        self.forms = forms
            .filter { $0.count >= Self.minimumLength && seen.insert($0).inserted }
            .sorted { $0.utf8.count > $1.utf8.count }
    }
}
