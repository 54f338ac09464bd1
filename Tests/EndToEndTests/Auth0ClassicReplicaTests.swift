import Foundation
import Testing

/// The Auth0 Classic Login (Lock) driver against the Auth0 replica's
/// `auth0-classic` tenant (Fixtures/server/replicas/auth0.md: written from
/// auth0.js, Lock and saml2aws's Auth0 provider; the `_csrf` double submit,
/// the one-time `wresult`; OTP checked by pyotp). The built binary,
/// default flags.
@Suite("Auth0 Classic Login replica")
struct Auth0ClassicReplicaTests {
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    static func arguments(_ fx: Fixture, user: String) -> [String] {
        ["--issuer", fx.issuer("auth0-classic") + "/", "--client-id", "public-app", "--redirect-uri", Fixture.redirect] + ReplicaUser.form(user)
    }

    struct Login: Sendable, CustomStringConvertible {
        let user: String
        var seed: String?
        var config: String?
        /// How many times `/usernamepassword/login` is called (twice with a one-time code).
        var logins = 1
        var description: String { user + (config.map { " " + $0 } ?? "") }
    }

    @Test(arguments: [
        Login(user: "alice"),
        Login(user: "alice", config: #"{"auth0_lock_config":"flat"}"#),
        Login(user: "carol", seed: seed, logins: 2),
    ])
    func signsInWithDefaultFlags(_ login: Login) async throws {
        let fx = try await Fixture.make()
        if let config = login.config { try fx.configure(config) }
        let result = try await run(Self.arguments(fx, user: login.user), env: login.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:], stdin: "wonderland\n")
        expectTokenJSON(result)
        #expect(result.stderr == "", "\(result)")
        let hits = try fx.hits()
        let posts = hits.filter { $0.path.hasSuffix("/usernamepassword/login") }
        #expect(posts.count == login.logins, "\(hits.map(\.path))")
        #expect(posts.allSatisfy { $0.json["connection"] == "Username-Password-Authentication" && $0.json["username"] == login.user
                                   && $0.json["_csrf"]?.isEmpty == false && $0.json["state"]?.isEmpty == false })
        #expect(posts.first?.headers["origin"] == fx.base)
        #expect((posts.last?.json["mfa_code"] != nil) == (login.seed != nil))
        let callback = try #require(hits.first { $0.path.hasSuffix("/login/callback") })
        #expect(callback.form["wa"] == "wsignin1.0" && callback.form["wresult"]?.isEmpty == false)
        #expect(try fx.hits(to: "token").count == 1)
        expectNoSecrets(in: result, fixture: fx, extra: [Self.seed] + ReplicaSecrets.issued(hits))
    }

    struct Stop: Sendable, CustomStringConvertible {
        let user: String
        var password = "wonderland"
        var seed: String?
        var config: String?
        let line: String
        let hint: String
        var description: String { "\(user): \(line)" }
    }

    static let rejected = "Auth0 turned down the credentials given with --form; check them (-v shows each step, secrets redacted)."
    static let codeRejected = "Auth0 turned down the code made from --totp-secret; check the seed (algorithm, digits, period) and this machine's clock."

    @Test(arguments: [
        Stop(user: "alice", password: "not-the-password", line: "login rejected: Wrong email or password.", hint: rejected),
        Stop(user: "alice", password: "not-the-password", config: #"{"auth0_wrong_password_status":400}"#,
             line: "login rejected: Wrong email or password.", hint: rejected),
        Stop(user: "lou", line: "login rejected: user is blocked", hint: rejected),
        Stop(user: "alice", config: #"{"auth0_lockout_threshold":0}"#,
             line: "login rejected: Your account has been blocked after multiple consecutive login attempts.", hint: rejected),
        Stop(user: "carol", line: "the Auth0 login asks for a one-time code",
             hint: "Pass the account's TOTP seed with --totp-secret (base32, or the otpauth:// URI of its QR code)."),
        Stop(user: "carol", seed: "JBSWY3DPEHPK3PXP", line: "login rejected: Wrong or expired code.", hint: codeRejected),
        // Guardian push: Classic Login takes only a code, which no one has (auth0.md, "Left out").
        Stop(user: "pat", seed: seed, line: "login rejected: Wrong or expired code.", hint: codeRejected),
    ])
    func stopsWithAuth0sWordsAndExitSix(_ stop: Stop) async throws {
        let fx = try await Fixture.make()
        if let config = stop.config { try fx.configure(config) }
        let result = try await run(Self.arguments(fx, user: stop.user), env: stop.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:],
                                   stdin: stop.password + "\n")
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: \(stop.line) (\(fx.issuer("auth0-classic"))/usernamepassword/login)\n\(stop.hint)\n", "\(result)")
        let hits = try fx.hits()
        #expect(!hits.contains { $0.path.hasSuffix("/login/callback") })
        #expect(try fx.hits(to: "token").isEmpty)
        expectNoSecrets(in: result, fixture: fx, extra: [stop.password, Self.seed] + ReplicaSecrets.issued(hits))
    }

    /// `-v` names the driver and its steps; neither the password, the code,
    /// Lock's `_csrf` nor the `wresult` shows, nor Lock's base64
    /// configuration (which holds the CSRF value).
    @Test func verboseNamesTheDriverAndItsStepsWithoutLocksSecrets() async throws {
        let fx = try await Fixture.make()
        let result = try await run(Self.arguments(fx, user: "carol") + ["-v"], env: ["AUTHCODE_TOTP_SECRET": Self.seed], stdin: "wonderland\n")
        expectTokenJSON(result)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* auth0") }.map(String.init)
        #expect(lines == [
            "* auth0 login: driver takes \(fx.issuer("auth0-classic"))/login",
            "* auth0: client configuration (connections)",
            "* auth0: usernamepassword/login (Username-Password-Authentication)",
            "* auth0: usernamepassword/login with the one-time code (mfa_code)",
        ], "\(result)")
        #expect(result.stderr.contains("wresult=[redacted]"))
        #expect(!result.stderr.contains("window.atob"))
        let hits = try fx.hits()
        expectNoSecrets(in: result, fixture: fx, extra: [Self.seed] + ReplicaSecrets.issued(hits))
    }
}
