@testable import Core
import Testing

struct SecretFormsTests {
    static let secret = "p@ss w/rd+&<\"'>é"

    /// Forms written out by hand from the encoders' rules (and checked
    /// against Python's urllib.parse, html and json modules).
    static let expected = [
        "p@ss w/rd+&<\"'>é",
        // percent-encoded, form style and RFC 3986 style, both cases
        "p%40ss+w%2Frd%2B%26%3C%22%27%3E%C3%A9",
        "p%40ss%20w%2Frd%2B%26%3C%22%27%3E%C3%A9",
        "p%40ss+w%2frd%2b%26%3c%22%27%3e%c3%a9",
        "p%40ss%20w%2frd%2b%26%3c%22%27%3e%c3%a9",
        "p%40ss%20w%2Frd%2B%26%3C%22'%3E%C3%A9",           // encodeURIComponent keeps '
        "p@ss%20w/rd+&%3C%22'%3E%C3%A9",                    // encodeURI
        // twice
        "p%2540ss%2Bw%252Frd%252B%2526%253C%2522%2527%253E%25C3%25A9",
        "p%2540ss%2520w%252Frd%252B%2526%253C%2522%2527%253E%25C3%25A9",
        "p%2540ss%2bw%252frd%252b%2526%253c%2522%2527%253e%25c3%25a9",
        // HTML
        "p@ss w/rd+&amp;&lt;\"'&gt;é",
        "p@ss w/rd+&amp;&lt;&quot;&#x27;&gt;é",
        "p@ss w/rd+&amp;&lt;&#34;&#39;&gt;é",
        "p@ss w/rd+&amp;&lt;&quot;&#39;&gt;é",
        "p@ss w/rd+&amp;&lt;&quot;&#039;&gt;é",
        "p@ss w/rd+&amp;&lt;&quot;&apos;&gt;é",
        "p@ss w/rd+&amp;&lt;&#34;&#39;&gt;&#233;",
        // JSON
        "p@ss w/rd+&<\\\"'>é",
        "p@ss w\\/rd+&<\\\"'>é",
        "p@ss w/rd+&<\\\"'>\\u00e9",
        "p@ss w/rd+&<\\\"'>\\u00E9",
        "p@ss w/rd+\\u0026\\u003c\\\"'\\u003e\\u00e9",
        "p@ss w/rd+\\u0026\\u003c\\\"\\u0027\\u003e\\u00e9",
        "p@ss w\\/rd+\\u0026\\u003C\\\"\\u0027\\u003E\\u00E9",
        // base64 standard, unpadded, base64url
        "cEBzcyB3L3JkKyY8Iic+w6k=",
        "cEBzcyB3L3JkKyY8Iic+w6k",
        "cEBzcyB3L3JkKyY8Iic-w6k",
    ]

    @Test(arguments: expected)
    func includes(form: String) {
        #expect(SecretForms(Self.secret).forms.contains(form))
    }

    @Test func distinctAndLongestFirst() {
        let forms = SecretForms(Self.secret).forms
        #expect(Set(forms).count == forms.count)
        #expect(forms.map(\.utf8.count) == forms.map(\.utf8.count).sorted(by: >))
    }

    /// A secret of letters and digits has few forms: every encoder leaves it
    /// alone, so only base64 differs.
    @Test func plainSecretHasFewForms() {
        #expect(Set(SecretForms("abcdEFGH1234").forms) == ["abcdEFGH1234", "YWJjZEVGR0gxMjM0"])
    }

    /// Every variant of every encoder, as `SecretForms` computed them before
    /// it skipped the variants that cannot differ: the two must agree.
    static func everyVariant(_ secret: String) -> Set<String> {
        var forms: [String] = [secret]
        for set in EchoEncoding.PercentSet.allCases {
            for spaceAsPlus in [true, false] {
                for upperHex in [true, false] {
                    let once = EchoEncoding.percent(secret, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)
                    forms += [once, EchoEncoding.percent(once, set: set, spaceAsPlus: spaceAsPlus, upperHex: upperHex)]
                }
            }
        }
        forms += EchoEncoding.HTMLQuotes.all.map { EchoEncoding.html(secret, quotes: $0) }
        forms += EchoEncoding.JSONOptions.allCases.map { EchoEncoding.json(secret, options: $0) }
        let padded = Base64URL.encodeStandard(Array(secret.utf8))
        forms += [padded, String(padded.prefix { $0 != "=" }), Base64URL.encode(Array(secret.utf8))]
        return Set(forms.filter { $0.count >= SecretForms.minimumLength })
    }

    static let tricky = [
        secret, "abcdEFGH1234", "a b c d", "a+b c", "x/y/z/w", "it's mine", "<&>&<>", "café-au-lait", "\u{2028}line\u{2029}",
        "tab\there😀", "100%-sure", "~*!'();:@&=+$,#?", "back\\slash\\u00e9", "a-b_c.d", "\u{7F}\u{1}\u{1F}ctl", "日本語テキスト",
        "e\u{301}\u{301}xyz", "\"quoted\"", "\u{8}\u{C}\n\r\t",
    ]

    @Test(arguments: tricky)
    func sameFormsAsEveryVariant(_ secret: String) {
        #expect(Set(SecretForms(secret).forms) == Self.everyVariant(secret))
    }

    /// Random secrets over an alphabet with every byte class the encoders treat apart.
    @Test func sameFormsForRandomSecrets() {
        let alphabet = Array("aZ09-._~*!'()/?:@&=+$,# %\"<>\\\u{1}\té😀\u{2028}")
        var state: UInt64 = 0x9E3779B97F4A7C15
        for _ in 0..<300 {
            var secret = ""
            for _ in 0..<(4 + Int(state % 9)) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                secret.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            #expect(Set(SecretForms(secret).forms) == Self.everyVariant(secret), "\(secret.debugDescription)")
        }
    }

    @Test func controlsAndAstralScalarsInJSON() {
        let forms = SecretForms("tab\there😀").forms
        #expect(forms.contains("tab\\there😀"))
        #expect(forms.contains("tab\\there\\ud83d\\ude00"))
        #expect(forms.contains("tab\\there\\uD83D\\uDE00"))
    }
}
