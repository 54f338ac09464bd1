import Foundation
import Testing

/// The generic walk, no driver, proven on the replicas of six providers whose
/// logins are server-rendered (Fixtures/server/replicas/{auth0,zitadel,gitea,
/// gitlab,dex,adfs}.md): the built binary with `--issuer`, the client and
/// `--form username=… --form password=…`, which fill each provider's own
/// identifier and password fields (README "Identity providers"; issue 31 item 1), and in the
/// cases marked `ownNames` the provider's own field names (+ `--totp-secret`).
/// Asserted: the outcome, what the login, code and consent steps received,
/// the exact error line with the provider's text, no secret on stderr.
@Suite("Generic walk on provider replicas")
struct GenericWalkReplicaTests {
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var scenario: String
        /// The issuer below the scenario root (`/`, `/dex`, `/adfs`, "").
        var issuer: String
        /// `--form` values, the password last (it goes through a file).
        var user: (name: String, value: String)
        var password: (name: String, value: String)
        var seed: String? = nil
        var config: String? = nil
        var extra: [String] = []
        /// `--form` with the provider's own field names, not the generic ones.
        var ownNames = false
        /// Successes: `<method> <path below the root> <field>=<value>…` of
        /// the steps that matter, in order (each must appear in the hits);
        /// `!<field>`: a field the step must not have (GitLab's Deny sends `_method`).
        var steps: [String] = []
        /// Failures: the error line (ROOT stands for the scenario root) and hint.
        var error: [String] = []
        var testDescription: String { name }
    }

    static let rejected = "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted)."

    static let logins: [Case] = [
        Case(name: "Auth0 Universal Login, identifier first", scenario: "auth0-ul", issuer: "/", user: ("username", "alice"), password: ("password", "wonderland"),
             steps: ["POST u/login/identifier action=default username=alice", "POST u/login/password action=default"]),
        Case(name: "Auth0 OTP", scenario: "auth0-ul", issuer: "/", user: ("username", "carol"), password: ("password", "wonderland"), seed: seed,
             steps: ["POST u/login/password action=default", "POST u/mfa-otp-challenge action=default"]),
        Case(name: "Auth0 consent", scenario: "auth0-ul", issuer: "/", user: ("username", "alice"), password: ("password", "wonderland"),
             config: #"{"auth0_consent":true}"#, steps: ["POST u/login/password action=default", "POST u/consent action=accept"]),
        // OTP and consent: 11 hops, within the default of 20.
        Case(name: "Auth0 OTP and consent", scenario: "auth0-ul", issuer: "/", user: ("username", "carol"), password: ("password", "wonderland"), seed: seed,
             config: #"{"auth0_consent":true}"#,
             steps: ["POST u/login/password action=default", "POST u/mfa-otp-challenge action=default", "POST u/consent action=accept"]),
        Case(name: "Zitadel", scenario: "zitadel", issuer: "", user: ("loginName", "alice"), password: ("password", "wonderland"),
             steps: ["POST ui/login/loginname loginName=alice", "POST ui/login/password loginName=alice"]),
        Case(name: "Zitadel OTP", scenario: "zitadel", issuer: "", user: ("loginName", "bob"), password: ("password", "builder"), seed: seed,
             steps: ["POST ui/login/password loginName=bob", "POST ui/login/mfa/verify mfaType=0"]),
        Case(name: "Gitea, Authorize Application", scenario: "gitea", issuer: "/", user: ("user_name", "alice"), password: ("password", "wonderland"),
             steps: ["POST user/login user_name=alice", "POST login/oauth/grant granted=true"]),
        Case(name: "Gitea OTP", scenario: "gitea", issuer: "/", user: ("user_name", "bob"), password: ("password", "builder"), seed: seed, ownNames: true,
             steps: ["POST user/login user_name=bob", "POST user/two_factor", "POST login/oauth/grant granted=true"]),
        Case(name: "GitLab, Doorkeeper authorize", scenario: "gitlab", issuer: "", user: ("user[login]", "alice"), password: ("user[password]", "wonderland"),
             steps: ["POST users/sign_in user[login]=alice", "POST oauth/authorize response_type=code !_method"]),
        Case(name: "GitLab OTP", scenario: "gitlab", issuer: "", user: ("user[login]", "bob"), password: ("user[password]", "builder"), seed: seed,
             steps: ["POST users/sign_in user[login]=bob", "POST users/sign_in", "POST oauth/authorize response_type=code !_method"]),
        Case(name: "Dex connector list, local login, approval", scenario: "dex", issuer: "/dex", user: ("login", "alice@example.com"), password: ("password", "wonderland"),
             steps: ["GET dex/auth/local", "POST dex/auth/local/login login=alice@example.com", "POST dex/approval approval=approve"]),
        Case(name: "Dex v2.45", scenario: "dex-v2", issuer: "/dex", user: ("login", "alice@example.com"), password: ("password", "wonderland"),
             steps: ["GET dex/auth/local", "POST dex/auth/local/login login=alice@example.com", "POST dex/approval approval=approve"]),
        // Dex's LDAP connector with TOTP and approval: 11 hops, within the default of 20.
        Case(name: "Dex OTP", scenario: "dex", issuer: "/dex", user: ("login", "bob"), password: ("password", "builder"), seed: seed,
             extra: ["--param", "connector_id=ldap"],
             steps: ["POST dex/auth/ldap/login login=bob", "POST dex/mfa/totp", "POST dex/approval approval=approve"]),
        Case(name: "AD FS", scenario: "adfs", issuer: "/adfs", user: ("UserName", "erin@fabrikam.example"), password: ("Password", "wonderland"), ownNames: true,
             steps: ["POST adfs/oauth2/authorize/ AuthMethod=FormsAuthentication UserName=erin@fabrikam.example"]),
        Case(name: "AD FS with the Azure MFA adapter", scenario: "adfs", issuer: "/adfs", user: ("UserName", "bob@fabrikam.example"), password: ("Password", "builder"),
             seed: seed, steps: ["POST adfs/oauth2/authorize/ AuthMethod=FormsAuthentication", "POST adfs/oauth2/authorize/ AuthMethod=AzureMfaAuthentication"]),
    ]

    static func run(_ item: Case, fx: Fixture, extra: [String] = []) async throws -> RunResult {
        if let config = item.config { try httpPost("\(fx.base)/_config/\(fx.run)", json: config) }
        let path = NSTemporaryDirectory() + "authcode-e2e-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try item.password.value.write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = ["--issuer", "\(fx.base)/t/\(fx.run)/\(item.scenario)\(item.issuer)", "--client-id", "public-app", "--redirect-uri", Fixture.redirect,
                         "--form", "\(item.ownNames ? item.user.name : "username")=\(item.user.value)",
                         "--form", "\(item.ownNames ? item.password.name : "password")=@\(path)"]
        return try await authcodeRun(arguments + item.extra + extra, env: item.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:])
    }

    /// stderr's lines. These servers take GET only (README "How the walk works", step 2): the
    /// POST authorization request falls back, and a fallback that works
    /// says nothing without -v (README "How the walk works", step 2).
    static func lines(_ result: RunResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init)
    }

    @Test(arguments: logins)
    func logsIn(_ item: Case) async throws {
        let fx = try await Fixture.make()
        let result = try await Self.run(item, fx: fx)
        expectTokenJSON(result)
        #expect(Self.lines(result).isEmpty, "\(result)")
        let root = "/t/\(fx.run)/\(item.scenario)/"
        let hits = try fx.hits()
        var rest = hits[...]
        for step in item.steps {
            let words = step.split(separator: " ").map(String.init)
            let found = rest.firstIndex { hit in
                hit.method == words[0] && hit.path == root + words[1] && words.dropFirst(2).allSatisfy { pair in
                    if pair.hasPrefix("!") { return hit.form[String(pair.dropFirst())] == nil }
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return hit.form[parts[0]] == parts[1]
                }
            }
            guard let found else {
                Issue.record("no hit '\(step)' after the steps before it\n\(hits.map(\.description).joined(separator: "\n"))")
                break
            }
            rest = hits[(found + 1)...]
        }
        // The password went only to the login form, never into a URL.
        for hit in hits where hit.query.contains(item.password.value) { Issue.record("password in a URL: \(hit)") }
        let codes = hits.flatMap { hit in ["code", "passcode", "totp", "user[otp_attempt]", "VerificationCode"].compactMap { hit.form[$0] } }
        expectNoSecrets(in: result, fixture: fx, extra: [item.password.value, item.seed].compactMap { $0 } + codes)
    }

    static let refusals: [Case] = [
        Case(name: "Auth0 wrong password", scenario: "auth0-ul", issuer: "/", user: ("username", "alice"), password: ("password", "wrong-pw-1"),
             error: ["authcode: error: login rejected: Wrong username or password (ROOT/u/login/password)", rejected]),
        Case(name: "Auth0 blocked user", scenario: "auth0-ul", issuer: "/", user: ("username", "lou"), password: ("password", "wonderland"),
             error: ["authcode: error: login rejected: The user is blocked. (ROOT/u/login/password)", rejected]),
        Case(name: "Zitadel wrong password", scenario: "zitadel", issuer: "", user: ("loginName", "alice"), password: ("password", "wrong-pw-1"),
             error: ["authcode: error: login rejected: Password is invalid (replica-password) (ROOT/ui/login/password)", rejected]),
        Case(name: "Zitadel locked user", scenario: "zitadel", issuer: "", user: ("loginName", "mallory"), password: ("password", "wonderland"),
             error: ["authcode: error: login rejected: User is locked (replica-locked) (ROOT/ui/login/password)", rejected]),
        Case(name: "Gitea wrong password", scenario: "gitea", issuer: "/", user: ("user_name", "alice"), password: ("password", "wrong-pw-1"),
             error: ["authcode: error: login rejected: Username or password is incorrect. (ROOT/user/login)", rejected]),
        Case(name: "Gitea prohibited user", scenario: "gitea", issuer: "/", user: ("user_name", "mallory"), password: ("password", "wonderland"),
             error: ["authcode: error: the page titled 'Sign in Prohibited - Gitea: Git with a cup of tea' has no form to fill in: Sign in Prohibited Your account is prohibited from signing in, please contact your site administrator. (ROOT/user/login)"]),
        Case(name: "GitLab wrong password", scenario: "gitlab", issuer: "", user: ("user[login]", "alice"), password: ("user[password]", "wrong-pw-1"), ownNames: true,
             error: ["authcode: error: login rejected: Invalid login or password. (ROOT/users/sign_in)", rejected]),
        Case(name: "GitLab locked user", scenario: "gitlab", issuer: "", user: ("user[login]", "mallory"), password: ("user[password]", "wonderland"),
             error: ["authcode: error: login rejected: Your account is locked. (ROOT/users/sign_in)", rejected]),
        Case(name: "Dex wrong password", scenario: "dex", issuer: "/dex", user: ("login", "alice@example.com"), password: ("password", "wrong-pw-1"),
             error: ["authcode: error: login rejected: Invalid Email Address and password. (ROOT/dex/auth/local/login)", rejected]),
        Case(name: "AD FS wrong password", scenario: "adfs", issuer: "/adfs", user: ("UserName", "erin@fabrikam.example"), password: ("Password", "wrong-pw-1"),
             error: ["authcode: error: login rejected: Incorrect user ID or password. Type the correct user ID and password, and try again. (ROOT/adfs/oauth2/authorize/)", rejected]),
    ]

    /// Issue 31 item 1 on a real provider's page: a `--form` name that
    /// matches nothing (`user` for Gitea's `user_name`) is named in the
    /// rejection with the fields the login form has.
    @Test func anUnmatchedNameIsNamed() async throws {
        let fx = try await Fixture.make()
        let password = try TempFile("wonderland\n")
        let result = try await authcodeRun(["--issuer", "\(fx.base)/t/\(fx.run)/gitea/", "--client-id", "public-app", "--redirect-uri", Fixture.redirect,
                                            "--form", "user=alice", "--form", "password=@" + password.path])
        #expect(result.exitCode == 6, "\(result)")
        let root = "\(fx.base)/t/\(fx.run)/gitea"
        #expect(Self.lines(result) == [
            "authcode: error: login rejected: Username or password is incorrect.; no field took --form user (the login's fields: user_name, password, remember) (\(root)/user/login)",
            "Give --form the login's own field names (user_name=…, password=…), or username and password, which fill a login form's identifier and password fields.",
        ], "\(result)")
    }

    @Test(arguments: refusals)
    func refuses(_ item: Case) async throws {
        let fx = try await Fixture.make()
        let result = try await Self.run(item, fx: fx)
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.stdout.isEmpty)
        let root = "\(fx.base)/t/\(fx.run)/\(item.scenario)"
        #expect(Self.lines(result) == item.error.map { $0.replacingOccurrences(of: "ROOT", with: root) }, "\(result)")
        #expect(try fx.hits().allSatisfy { !$0.path.hasSuffix("/token") && !$0.path.hasSuffix("/access_token") }, "no code, no token request")
        expectNoSecrets(in: result, fixture: fx, extra: [item.password.value])
    }
}
