import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow

/// What a run knows is secret before it sends anything (Flow/KnownSecrets.swift),
/// and that each is masked in the forms a server echoes it in.
struct KnownSecretsTests {
    static func redactor() -> Redactor {
        var settings = FlowSettings()
        settings.client.id = "demo-app"
        settings.client.secret = "cl1ent s3cret/+"
        settings.walk.form = [NameValue("username", "alice.smith"), NameValue("passphrase", "correct horse"), NameValue("pin", "482913")]
        settings.walk.steps = [Step(method: "POST", url: "https://idp.example/api/login",
                              body: #"{"user":"bob-the-user","auth":{"otp":"918273","factors":["sms-code-55"]},"n":5}"#),
                         Step(method: "POST", url: "https://idp.example/form", body: "user=carol-form&secret=f0rm%20secret")]
        settings.connection.headers = [HTTPHeader("Authorization", "Bearer user-token-123"), HTTPHeader("Proxy-Authorization", "Basic " + Base64URL.encodeStandard(Array("proxy-user:pr0xy pass".utf8))), HTTPHeader("Cookie", "sid=cookie-sid-99; theme=dark-mode"),
                           HTTPHeader("X-Api-Key", "k3y-value")]
        settings.walk.totpSecret = "GEZDGNBVGY3TQOJQ"
        let redactor = Redactor()
        KnownSecrets.remember(settings, in: redactor)
        return redactor
    }

    @Test(arguments: [
        // --form values, whatever the field's name.
        "alice.smith", "correct horse", "correct+horse", "correct%20horse", "482913",
        // --step body values, JSON at any depth and form fields.
        "bob-the-user", "918273", "sms-code-55", "carol-form", "f0rm secret", "f0rm%20secret", "f0rm+secret",
        // -H values, the credential after the scheme, each cookie value.
        "Bearer user-token-123", "user-token-123", "cookie-sid-99", "dark-mode", "k3y-value",
        "proxy-user:pr0xy pass", "pr0xy pass", "pr0xy%20pass", Base64URL.encodeStandard(Array("proxy-user:pr0xy pass".utf8)),
        // The client secret in its forms, and the Basic credential made of it (RFC 6749 §2.3.1).
        "cl1ent s3cret/+", "cl1ent+s3cret%2F%2B", "cl1ent%20s3cret%2f%2b", "cl1ent s3cret\\/+",
        Base64URL.encodeStandard(Array("demo-app:cl1ent+s3cret%2F%2B".utf8)), Base64URL.encodeStandard(Array("demo-app:cl1ent s3cret/+".utf8)),
        "GEZDGNBVGY3TQOJQ",
    ])
    func masked(secret: String) {
        #expect(Self.redactor().scrub("echo: \(secret) .") == "echo: [redacted] .")
    }

    @Test(arguments: ["demo-app", "username", "5", "POST"])
    func notSecret(text: String) {
        #expect(Self.redactor().scrub("echo: \(text) .") == "echo: \(text) .")
    }
}
