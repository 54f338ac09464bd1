import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import JOSE
@testable import Walk
@testable import Flow

/// The cache key (README.md "Token cache"): every input that chooses which
/// token is minted or for whom changes it; secrets and order do not.
struct CacheKeyTests {
    static func settings(_ change: (inout FlowSettings) -> Void = { _ in }) -> FlowSettings {
        var settings = FlowSettings()
        settings.server.issuer = "https://idp.example"
        settings.client.id = "cli"
        settings.client.redirectURI = "http://127.0.0.1:8765/cb"
        settings.request.scope = "openid profile"
        settings.request.params = [NameValue("audience", "api"), NameValue("prompt", "login")]
        settings.walk.form = [NameValue("username", "alice"), NameValue("password", "pw")]
        change(&settings)
        return settings
    }

    static let salt = [UInt8](repeating: 7, count: 32)

    static func key(_ settings: FlowSettings, salt: [UInt8] = CacheKeyTests.salt) -> String {
        (try? CacheKey.make(settings, salt: salt)) ?? "error"
    }

    static let base = key(settings())

    @Test func isHexHMACSHA256() {
        #expect(Self.base.count == 64 && Self.base.allSatisfy { "0123456789abcdef".contains($0) })
    }

    /// The file name is an HMAC: the same inputs under another salt give
    /// another name, so nobody without the salt can test a guess.
    @Test func saltChangesEveryName() {
        #expect(Self.key(Self.settings(), salt: [UInt8](repeating: 8, count: 32)) != Self.base)
        #expect(Self.key(Self.settings()) == Self.base, "deterministic under one salt")
    }

    @Test(arguments: [
        ("issuer", { @Sendable (o: inout FlowSettings) in o.server.issuer = "https://other.example" }),
        ("client", { @Sendable o in o.client.id = "cli2" }),
        ("redirect", { @Sendable o in o.client.redirectURI = "http://127.0.0.1:8765/cb2" }),
        ("scope", { @Sendable o in o.request.scope = "openid" }),
        ("param", { @Sendable o in o.request.params = [NameValue("audience", "other")] }),
        ("user", { @Sendable o in o.walk.form = [NameValue("username", "bob"), NameValue("password", "pw")] }),
        ("email", { @Sendable o in o.walk.form.append(NameValue("E-Mail", "a@example")) }),
        ("step", { @Sendable o in o.walk.steps = [Step(method: .post, url: "https://idp.example/api/login", body: nil)] }),
        // Fields by any name: no allow-list of identity names.
        ("user[email]", { @Sendable o in o.walk.form = [NameValue("user[email]", "b@example"), NameValue("password", "pw")] }),
        ("j_username", { @Sendable o in o.walk.form.append(NameValue("j_username", "bob")) }),
        ("login_hint", { @Sendable o in o.walk.form.append(NameValue("login_hint", "bob@example")) }),
        ("tenant", { @Sendable o in o.walk.form.append(NameValue("tenant", "b")) }),
        ("authorize url", { @Sendable o in o.server.authorizeURL = "https://idp.example/other/authorize" }),
        ("token url", { @Sendable o in o.server.tokenURL = "https://idp.example/other/token" }),
        ("connect-to", { @Sendable o in o.connection.transport.connectTo = [try! ConnectTo("idp.example:443:idp2.example:443")] }),
        ("client auth", { @Sendable o in o.client.authMethod = .clientSecretPost }),
        ("header", { @Sendable o in o.connection.headers = [HTTPHeader("X-Tenant", "b")] }),
        ("submit", { @Sendable o in o.walk.submit = SubmitChoice(name: "account", value: "bob") }),
    ] as [(String, @Sendable (inout FlowSettings) -> Void)])
    func changesWith(what: String, change: @Sendable (inout FlowSettings) -> Void) {
        #expect(Self.key(Self.settings(change)) != Self.base, "\(what)")
    }

    /// Each part of a `--step` and of a header counts on its own.
    @Test(arguments: [
        ("step body", { @Sendable (o: inout FlowSettings) in o.walk.steps = [Step(method: .post, url: "https://idp.example/api/login", body: #"{"user":"b"}"#)] }),
        ("step method", { @Sendable o in o.walk.steps = [Step(method: "PUT", url: "https://idp.example/api/login", body: #"{"user":"a"}"#)] }),
        ("step url", { @Sendable o in o.walk.steps = [Step(method: .post, url: "https://idp.example/api/login2", body: #"{"user":"a"}"#)] }),
        ("step without body", { @Sendable o in o.walk.steps = [Step(method: .post, url: "https://idp.example/api/login", body: nil)] }),
        ("step empty body", { @Sendable o in o.walk.steps = [Step(method: .post, url: "https://idp.example/api/login", body: "")] }),
        ("header value", { @Sendable o in o.connection.headers = [HTTPHeader("X-Tenant", "b")] }),
        ("header name", { @Sendable o in o.connection.headers = [HTTPHeader("X-Other", "a")] }),
        ("a second header", { @Sendable o in o.connection.headers.append(HTTPHeader("X-Other", "a")) }),
        ("submit value", { @Sendable o in o.walk.submit = SubmitChoice(name: "account", value: "bob") }),
        ("submit without value", { @Sendable o in o.walk.submit = SubmitChoice(name: "account", value: nil) }),
    ] as [(String, @Sendable (inout FlowSettings) -> Void)])
    func partsCount(what: String, change: @Sendable (inout FlowSettings) -> Void) {
        let reference = Self.settings {
            $0.walk.steps = [Step(method: .post, url: "https://idp.example/api/login", body: #"{"user":"a"}"#)]
            $0.connection.headers = [HTTPHeader("X-Tenant", "a")]
            $0.walk.submit = SubmitChoice(name: "account", value: "alice")
        }
        var changed = reference
        change(&changed)
        #expect(Self.key(changed) != Self.key(reference), "\(what)")
    }

    @Test(arguments: [
        ("password", { @Sendable (o: inout FlowSettings) in o.walk.form = [NameValue("username", "alice"), NameValue("password", "other")] }),
        ("client secret", { @Sendable o in o.client.secret = "s3cret" }),
        ("scope order", { @Sendable o in o.request.scope = "profile openid" }),
        ("param order", { @Sendable o in o.request.params = [NameValue("prompt", "login"), NameValue("audience", "api")] }),
        ("print", { @Sendable o in o.output.print = .accessToken }),
        ("otp field", { @Sendable o in o.walk.form.append(NameValue("otp", "123456")) }),
        ("form order", { @Sendable o in o.walk.form = [NameValue("password", "pw"), NameValue("username", "alice")] }),
        ("a password by another name", { @Sendable o in o.walk.form.append(NameValue("user[password]", "anything")) }),
        ("TOTP seed", { @Sendable o in o.walk.totpSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" }),
        ("min-ttl", { @Sendable o in o.cache.minTTL = 600 }),
        ("timeout", { @Sendable o in o.connection.transport.timeout = 5 }),
    ] as [(String, @Sendable (inout FlowSettings) -> Void)])
    func staysWith(what: String, change: @Sendable (inout FlowSettings) -> Void) {
        #expect(Self.key(Self.settings(change)) == Self.base, "\(what)")
    }

    /// A secret field's value never counts, whatever it is called by the
    /// redaction rule; its name beside an identity changes nothing either.
    @Test(arguments: ["password", "j_password", "user[password]", "passwd", "pin", "otp", "client_secret", "session_token"])
    func secretValueDoesNotCount(name: String) {
        let a = Self.key(Self.settings { $0.walk.form = [NameValue("login", "alice"), NameValue(name, "one")] })
        let b = Self.key(Self.settings { $0.walk.form = [NameValue("login", "alice"), NameValue(name, "two")] })
        #expect(a == b)
    }

    @Test func headerOrderAndNameCaseDoNotCount() {
        let a = Self.key(Self.settings { $0.connection.headers = [HTTPHeader("X-A", "1"), HTTPHeader("X-B", "2")] })
        let b = Self.key(Self.settings { $0.connection.headers = [HTTPHeader("x-b", "2"), HTTPHeader("x-a", "1")] })
        #expect(a == b)
    }

    /// Length-prefixed: no two different inputs encode alike, however the
    /// values are spelled.
    @Test(arguments: [
        ([NameValue("a", "b=c")], [NameValue("a=b", "c")]),
        ([NameValue("a", "b"), NameValue("c", "d")], [NameValue("a", "b\u{0}c"), NameValue("", "d")]),
        ([NameValue("a", "")], [NameValue("", "a")]),
    ])
    func encodingIsUnambiguous(one: [NameValue], other: [NameValue]) {
        #expect(Self.key(Self.settings { $0.walk.form = one }) != Self.key(Self.settings { $0.walk.form = other }))
    }

    @Test func scopeAndParamsDoNotBleedIntoEachOther() {
        let a = Self.key(Self.settings { $0.request.scope = "openid x"; $0.request.params = [] })
        let b = Self.key(Self.settings { $0.request.scope = "openid"; $0.request.params = [NameValue("x", "")] })
        #expect(a != b)
    }

    @Test func tokenEndpointStandsInForAMissingIssuer() {
        let a = Self.key(Self.settings { $0.server.issuer = nil; $0.server.tokenURL = "https://a.example/token" })
        let b = Self.key(Self.settings { $0.server.issuer = nil; $0.server.tokenURL = "https://b.example/token" })
        #expect(a != b)
    }

    /// The client certificate and its key count by content, not by path:
    /// a renewed certificate at the same path is another client.
    @Test(arguments: [false, true])
    func certificateCountsByContent(key: Bool) throws {
        let directory = NSTemporaryDirectory() + "authcode-certkey-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = directory + "/one.pem", second = directory + "/two.pem"
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: second, atomically: true, encoding: .utf8)
        func keyed(_ path: String) -> String {
            Self.key(Self.settings { o in
                if key { o.connection.transport.cert = directory + "/fixed.pem"; o.connection.transport.key = path } else { o.connection.transport.cert = path }
            })
        }
        try "fixed".write(toFile: directory + "/fixed.pem", atomically: true, encoding: .utf8)
        let none = Self.base
        let one = keyed(first)
        #expect(one != none && one != "error")
        #expect(keyed(second) == one, "same content at another path: the same client")
        try "-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n".write(toFile: first, atomically: true, encoding: .utf8)
        #expect(keyed(first) != one, "new content at the same path: another client")
    }

    @Test func aCertificateThatIsNotAFileIsUsage() throws {
        var settings = Self.settings()
        settings.connection.transport.cert = "/dev/null"
        #expect(throws: CacheError.clientFileNotRegular(.certificate, .notRegularFile(.clientFile(.certificate), path: "/dev/null", .characterDevice))) {
            try CacheKey.make(settings, salt: Self.salt)
        }
    }

    /// A passkey names who logs in (a passwordless login has no username):
    /// another account is another entry; a new count, or the same account's
    /// re-enrolled key, is not.
    @Test func aPasskeyChoosesTheAccount() throws {
        func passkey(_ user: [UInt8], count: UInt32 = 1, rpID: String = "idp.example") throws -> PasskeyCredential {
            try PasskeyCredential(rpID: rpID, credentialID: Array(0..<16), userHandle: user, key: SigningKey.generate(curve: .p256), signCount: count)
        }
        func key(_ credential: PasskeyCredential?) -> String {
            Self.key(Self.settings { $0.walk.passkeyFile = "/ci/pk.json"; $0.walk.passkey = credential })
        }
        let alice = key(try passkey([1]))
        #expect(alice != Self.base)
        #expect(key(try passkey([1], count: 99)) == alice)
        #expect(key(try passkey([2])) != alice)
        #expect(key(try passkey([1], rpID: "other.example")) != alice)
        #expect(key(nil) != alice && key(nil) != Self.base)
    }
}
