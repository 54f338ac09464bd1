@testable import Core
import Testing

/// Secrets whose forms are longer than `SecretScrubber.indexedLength` are
/// kept as a length and a window hash per form (LongFormSet.swift), not in
/// the trie: every form is still masked wherever it appears, and only there.
struct LongSecretScrubberTests {
    /// Every byte class the encoders treat apart, repeated past the index bound.
    static let secret = String(repeating: "p@ss w/rd+&<\"'>é~", count: 24)

    @Test func theFormsAreLongerThanTheIndexBound() {
        #expect(SecretForms(Self.secret).forms.allSatisfy { $0.utf8.count > SecretScrubber.indexedLength })
    }

    @Test func everyFormIsMaskedInPlace() {
        let scrubber = SecretScrubber()
        scrubber.remember(Self.secret)
        let forms = SecretForms(Self.secret).forms
        #expect(forms.count > 20)
        for form in forms {
            #expect(scrubber.scrub("before " + form + " after") == "before [redacted] after", "\(form.prefix(40))")
        }
    }

    @Test func aFormAtEitherEndAndTwiceOverlapping() {
        let scrubber = SecretScrubber()
        let token = String(repeating: "ab", count: 400) + "Z"
        scrubber.remember(token)
        #expect(scrubber.scrub(token) == "[redacted]")
        #expect(scrubber.scrub(token + token) == "[redacted][redacted]")
        // "ab…abZ" inside "ab…ab ab…abZ": only the whole token is masked.
        #expect(scrubber.scrub("ab" + token) == "ab[redacted]")
        #expect(scrubber.scrub(String(token.dropLast())) == String(token.dropLast()), "a cut form is not the form")
    }

    /// A long secret and a short one overlapping: one mask covers both.
    @Test func longAndShortOverlapping() {
        let scrubber = SecretScrubber()
        let long = String(repeating: "x", count: 300) + "tail-secret"
        scrubber.remember(long)
        scrubber.remember("tail-secret-and-more")
        #expect(scrubber.scrub("<" + long + "-and-more>") == "<[redacted]>")
    }

    @Test func scrubbingTwiceChangesNothing() {
        let scrubber = SecretScrubber()
        scrubber.remember(Self.secret)
        let once = scrubber.scrub("a " + Self.secret + " b " + SecretForms(Self.secret).forms[3])
        #expect(once == "a [redacted] b [redacted]")
        #expect(scrubber.scrub(once) == once)
    }

    /// A copy made from what a redactor remembered (a batch record's) masks
    /// the long forms too.
    @Test func aRememberedCopyScrubsTheLongForms() {
        let redactor = Redactor()
        redactor.remember(Self.secret)
        let copy = Redactor(redactor.remembered)
        for form in SecretForms(Self.secret).forms {
            #expect(copy.scrub("=" + form + "=") == "=[redacted]=")
        }
    }
}
