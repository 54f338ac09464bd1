import Testing
@testable import Core
@testable import OAuth
@testable import Flow

/// The cache key (README.md "Token cache"): what makes two runs ask for the
/// same token changes it; secrets and order do not.
struct CacheKeyTests {
    static func options(_ change: (inout Options) -> Void = { _ in }) -> Options {
        var options = Options()
        options.issuer = "https://idp.example"
        options.clientID = "cli"
        options.redirectURI = "http://127.0.0.1:8765/cb"
        options.scope = "openid profile"
        options.params = [NameValue("audience", "api"), NameValue("prompt", "login")]
        options.form = [NameValue("username", "alice"), NameValue("password", "pw")]
        change(&options)
        return options
    }

    static let base = CacheKey.make(options())

    @Test func isHexSHA256() {
        #expect(Self.base.count == 64 && Self.base.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test(arguments: [
        ("issuer", { @Sendable (o: inout Options) in o.issuer = "https://other.example" }),
        ("client", { @Sendable o in o.clientID = "cli2" }),
        ("redirect", { @Sendable o in o.redirectURI = "http://127.0.0.1:8765/cb2" }),
        ("scope", { @Sendable o in o.scope = "openid" }),
        ("param", { @Sendable o in o.params = [NameValue("audience", "other")] }),
        ("user", { @Sendable o in o.form = [NameValue("username", "bob"), NameValue("password", "pw")] }),
        ("email", { @Sendable o in o.form.append(NameValue("E-Mail", "a@example")) }),
        ("step", { @Sendable o in o.steps = [Step(method: .post, url: "https://idp.example/api/login", body: nil)] }),
    ] as [(String, @Sendable (inout Options) -> Void)])
    func changesWith(what: String, change: @Sendable (inout Options) -> Void) {
        #expect(CacheKey.make(Self.options(change)) != Self.base, "\(what)")
    }

    @Test(arguments: [
        ("password", { @Sendable (o: inout Options) in o.form = [NameValue("username", "alice"), NameValue("password", "other")] }),
        ("client secret", { @Sendable o in o.clientSecret = "s3cret" }),
        ("scope order", { @Sendable o in o.scope = "profile openid" }),
        ("param order", { @Sendable o in o.params = [NameValue("prompt", "login"), NameValue("audience", "api")] }),
        ("print", { @Sendable o in o.print = .accessToken }),
        ("otp field", { @Sendable o in o.form.append(NameValue("otp", "123456")) }),
    ] as [(String, @Sendable (inout Options) -> Void)])
    func staysWith(what: String, change: @Sendable (inout Options) -> Void) {
        #expect(CacheKey.make(Self.options(change)) == Self.base, "\(what)")
    }

    @Test func tokenEndpointStandsInForAMissingIssuer() {
        let a = CacheKey.make(Self.options { $0.issuer = nil; $0.tokenURL = "https://a.example/token" })
        let b = CacheKey.make(Self.options { $0.issuer = nil; $0.tokenURL = "https://b.example/token" })
        #expect(a != b)
    }
}
