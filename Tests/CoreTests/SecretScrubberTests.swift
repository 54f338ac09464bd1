@testable import Core
import Testing

struct SecretScrubberTests {
    static let secret = SecretFormsTests.secret

    /// Every form, inside a sentence and glued to other text.
    @Test(arguments: SecretFormsTests.expected)
    func scrubsEachForm(form: String) {
        let scrubber = SecretScrubber()
        scrubber.remember(Self.secret)
        #expect(scrubber.scrub("before \(form) after") == "before [redacted] after")
        #expect(scrubber.scrub("x\(form)y") == "x[redacted]y")
        #expect(scrubber.scrub(form) == "[redacted]")
        #expect(scrubber.scrub("\(form)\(form)") == "[redacted][redacted]")
    }

    @Test func inAURLAndAPage() {
        let scrubber = SecretScrubber()
        scrubber.remember(Self.secret)
        #expect(scrubber.scrub("GET /login?user=bob&password=p%40ss+w%2Frd%2B%26%3C%22%27%3E%C3%A9&next=%2F HTTP/1.1")
            == "GET /login?user=bob&password=[redacted]&next=%2F HTTP/1.1")
        #expect(scrubber.scrub("<input value=\"p@ss w/rd+&amp;&lt;&quot;&#x27;&gt;é\">") == "<input value=\"[redacted]\">")
        #expect(scrubber.scrub("{\"echo\":\"p@ss w\\/rd+&<\\\"'>\\u00e9\"}") == "{\"echo\":\"[redacted]\"}")
    }

    @Test func textWithoutSecretsIsReturnedAsIs() {
        let scrubber = SecretScrubber()
        #expect(scrubber.isEmpty)
        #expect(scrubber.scrub("nothing known yet") == "nothing known yet")
        scrubber.remember("hunter22")
        #expect(scrubber.scrub("café 日本 👩‍👩‍👧 hunter2") == "café 日本 👩‍👩‍👧 hunter2")
        #expect(scrubber.scrub("") == "")
    }

    @Test func shortSecretsAreNotRemembered() {
        let scrubber = SecretScrubber()
        scrubber.remember("abc")
        scrubber.remember("")
        scrubber.remember(nil)
        #expect(scrubber.isEmpty)
        #expect(scrubber.scrub("abc abc") == "abc abc")
    }

    /// Two secrets that overlap in the text: no fragment of either survives.
    @Test func overlappingSecrets() {
        let scrubber = SecretScrubber()
        scrubber.remember("abcdef12")
        scrubber.remember("ef12ghij")
        #expect(scrubber.scrub("[abcdef12ghij]") == "[[redacted]]")
        #expect(scrubber.scrub("abcdef12 ef12ghij") == "[redacted] [redacted]")
    }

    /// One secret inside another: the longer one is masked whole.
    @Test func nestedSecrets() {
        let scrubber = SecretScrubber()
        scrubber.remember("1234")
        scrubber.remember("token-1234-end")
        #expect(scrubber.scrub("a token-1234-end b 1234") == "a [redacted] b [redacted]")
    }

    @Test(arguments: [
        "x p@ss w/rd+&<\"'>é y", "[redacted] secret-value-1", "redacted", "[redacted][redacted]", "]secret-value-1[", "",
    ])
    func idempotent(text: String) {
        let scrubber = SecretScrubber()
        scrubber.remember(Self.secret)
        scrubber.remember("secret-value-1")
        scrubber.remember("redacted")   // a secret that is part of the mask
        let once = scrubber.scrub(text)
        #expect(scrubber.scrub(once) == once)
        #expect(!once.contains("secret-value-1"))
    }

    /// A mask written beside text that, with the mask's `[` or `]` or the
    /// whole mask, spells a secret again (found by FuzzRedactor: `"rd[` in
    /// `"rd[redacted]`) is masked in the same scrub, so a second one
    /// changes nothing.
    @Test(arguments: [
        ("\"rd\"rd[", "[redacted]"),
        ("zz-secret-9abc", "[redacted]"),
        ("azz-secret-9b", "[redacted]"),
        ("\"rd[redacted]", "[redacted]"),
        ("x]abc [redacted]", "x[redacted] [redacted]"),
    ])
    func aMaskThatSpellsASecretIsMaskedToo(text: String, expected: String) {
        let scrubber = SecretScrubber()
        for secret in ["\"rd[", "]abc", "a[redacted]b", "zz-secret-9"] { scrubber.remember(secret) }
        let once = scrubber.scrub(text)
        #expect(once == expected)
        #expect(scrubber.scrub(once) == once)
    }

    /// A server that echoes a secret starting with `]` over and over makes
    /// each pass spell it once more: after a few passes the text is masked
    /// whole, so scrubbing stays linear in the text's length.
    @Test func aTextBuiltToSpellSecretsPassAfterPassIsMaskedWhole() {
        let scrubber = SecretScrubber()
        scrubber.remember("]pw12")
        #expect(scrubber.scrub("]pw12" + String(repeating: "pw12", count: 3)) == "[redacted]")
        let built = "]pw12" + String(repeating: "pw12", count: 100_000)
        #expect(scrubber.scrub(built) == "[redacted]")
    }

    @Test func maskIsNotEatenBySecretInsideIt() {
        let scrubber = SecretScrubber()
        scrubber.remember("redacted")
        #expect(scrubber.scrub("redacted [redacted]") == "[redacted] [redacted]")
    }

    @Test func basicCredentials() {
        let scrubber = SecretScrubber()
        scrubber.rememberBasic(id: "client id", secret: Self.secret)
        #expect(scrubber.scrub("Authorization: Basic Y2xpZW50K2lkOnAlNDBzcyt3JTJGcmQlMkIlMjYlM0MlMjIlMjclM0UlQzMlQTk=")
            == "Authorization: Basic [redacted]")
        #expect(scrubber.scrub("Basic Y2xpZW50IGlkOnBAc3Mgdy9yZCsmPCInPsOp") == "Basic [redacted]")
        #expect(scrubber.scrub("echo=Y2xpZW50IGlkOnBAc3Mgdy9yZCsmPCInPsOp") == "echo=[redacted]")
        #expect(scrubber.scrub("client id") == "client id")
        #expect(scrubber.scrub(Self.secret) == "[redacted]")
    }

    /// Many secrets, a large text: one pass, and still exact.
    @Test func manySecretsLargeText() {
        let scrubber = SecretScrubber()
        for index in 0..<200 { scrubber.remember("secret-\(index)-value/+") }
        let filler = String(repeating: "lorem ipsum dolor sit amet, secret-x ", count: 5_000)
        let text = filler + "secret-199-value%2F%2B" + filler
        #expect(scrubber.scrub(text) == filler + "[redacted]" + filler)
    }

    @Test func nonASCIIAroundMatches() {
        let scrubber = SecretScrubber()
        scrubber.remember("мойпароль")
        #expect(scrubber.scrub("é мойпароль 日本") == "é [redacted] 日本")
        #expect(scrubber.scrub("%D0%BC%D0%BE%D0%B9%D0%BF%D0%B0%D1%80%D0%BE%D0%BB%D1%8C!") == "[redacted]!")
    }
}
