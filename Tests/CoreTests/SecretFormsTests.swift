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

    @Test func controlsAndAstralScalarsInJSON() {
        let forms = SecretForms("tab\there😀").forms
        #expect(forms.contains("tab\\there😀"))
        #expect(forms.contains("tab\\there\\ud83d\\ude00"))
        #expect(forms.contains("tab\\there\\uD83D\\uDE00"))
    }
}
