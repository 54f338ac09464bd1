@testable import Core
import Testing

/// Core/Redaction/RememberedSecrets.swift: a redactor made from another's
/// remembered secrets scrubs what the first one does, in every form — the
/// way a batch record's error line is scrubbed on the writing thread.
struct RememberedSecretsTests {
    @Test(arguments: SecretFormsTests.expected + ["Y2xpOnMzY3JldC12YWx1ZQ==", "s3cret-value"])
    func aCopyScrubsWhatTheOriginalDoes(form: String) {
        let original = Redactor()
        original.remember(SecretFormsTests.secret)
        original.rememberClient(id: "cli", secret: "s3cret-value")
        let copy = Redactor(original.remembered)
        let text = "echo: \(form) ."
        #expect(copy.finished(text) == original.finished(text))
        #expect(copy.finished(text) == "echo: [redacted] .")
    }

    @Test func noneScrubsNothing() {
        #expect(Redactor(.none).finished("p@ss w/rd") == "p@ss w/rd")
        #expect(Redactor().remembered == .none)
    }
}
