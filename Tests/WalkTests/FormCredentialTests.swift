import Testing
@testable import Core
@testable import HTTP
@testable import Walk

/// What a filled form hands over (Walk/FormSubmission+Credentials.swift):
/// whether it carries the user's credentials, and that a password field's
/// value is a secret whatever its name.
struct FormCredentialTests {
    static func submission(_ html: String, _ user: [HTMLFieldValue]) throws -> FormSubmission {
        let form = try #require(HTMLFormParser.forms(in: html).first)
        return try FormChooser.submission(for: form, userFields: user, submit: nil)
    }

    static let pinLogin = """
        <form method="post" action="/login"><input name="account"><input type="password" name="pin">
        <input type="password" name="passphrase" value="prefilled-phrase"><button>Sign in</button></form>
        """
    static let consent = """
        <form method="post" action="https://other.example/consent"><input type="hidden" name="txn" value="t-1">
        <button name="decision" value="allow">Allow</button></form>
        """

    @Test func loginFormCarriesCredentials() throws {
        let user = [NameValue("account", "alice"), NameValue("pin", "482913")]
        #expect(try Self.submission(Self.pinLogin, user).carriesCredentials(from: user))
    }

    @Test func consentFormOfPageValuesCarriesNone() throws {
        let user = [NameValue("username", "alice"), NameValue("password", "wonderland")]
        #expect(try !Self.submission(Self.consent, user).carriesCredentials(from: user))
    }

    /// A filled password field counts even when its value came from the page.
    @Test func prefilledPasswordCounts() throws {
        #expect(try Self.submission(Self.pinLogin, [NameValue("pin", "1")]).carriesCredentials(from: []))
    }

    @Test func passwordFieldValuesAreRemembered() throws {
        let redactor = Redactor()
        try Self.submission(Self.pinLogin, [NameValue("account", "alice"), NameValue("pin", "482913")]).rememberPasswords(in: redactor)
        #expect(redactor.scrub("pin 482913, phrase prefilled-phrase, account alice") == "pin [redacted], phrase [redacted], account alice")
    }
}
