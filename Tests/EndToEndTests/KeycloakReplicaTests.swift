import Foundation
import Testing

/// The Keycloak driver against the Keycloak replica (Fixtures/server/replicas/
/// keycloak.md: Keycloak's own templates and session checks, py_webauthn
/// verifying every passkey), with the built binary and default flags:
/// `--issuer`, the client, `--form username/password` (+ `--totp-secret`,
/// `--passkey`). Each case asserts the exact outcome and what each
/// login-actions step received.
@Suite("Keycloak replica")
struct KeycloakReplicaTests {
    static let hint = "authcode cannot do this for the user; an administrator can take it off the test user (admin console: Users → the user → Required user actions) or turn it off for the realm (Authentication → Required actions)."
    static let phone = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let tablet = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var scenario: String
        var user: String
        var password: String?
        var seed: String? = nil
        var config: String? = nil
        var extra: [String] = []
        /// Each POST to login-actions: `<endpoint> <status> <fields sorted>`.
        var steps: [String] = []
        /// Failures: exit code and the exact stderr.
        var exit: Int32 = 0
        var stderr: [String] = []
        var testDescription: String { name }
    }

    static let login = "authenticate 302 credentialId,login,password,username"
    static let loginPage = "authenticate 200 credentialId,login,password,username"

    static let logins: [Case] = [
        Case(name: "keycloak theme", scenario: "keycloak", user: "alice", password: "wonderland", steps: [login]),
        Case(name: "keycloak.v2 theme", scenario: "keycloak-v2", user: "alice", password: "wonderland", steps: [login]),
        Case(name: "Keycloakify theme", scenario: "keycloakify", user: "alice", password: "wonderland", steps: [login]),
        Case(name: "username first", scenario: "keycloak-username-first", user: "alice", password: "wonderland",
             // The password page's form gets every --form value (a login form may build fields by script).
             steps: ["authenticate 200 login,username", "authenticate 302 login,password,username"]),
        Case(name: "consent accepted", scenario: "keycloak-consent", user: "alice", password: "wonderland", steps: [login, "consent 302 accept,code"]),
        Case(name: "Keycloakify consent", scenario: "keycloak-consent", user: "alice", password: "wonderland", config: #"{"keycloak":{"theme":"keycloakify"}}"#,
             steps: [login, "consent 302 accept,code"]),
        Case(name: "Kerberos realm without a ticket", scenario: "keycloak-kerberos", user: "alice", password: "wonderland",
             steps: ["authenticate 200 continue", login]),
        Case(name: "terms accepted", scenario: "keycloak", user: "terms", password: "terms-pw", steps: [login, "required-action 302 accept"]),
        Case(name: "Keycloakify terms", scenario: "keycloakify", user: "terms", password: "terms-pw", steps: [login, "required-action 302 accept"]),
        Case(name: "OTP", scenario: "keycloak", user: "carol", password: "carol-pw", seed: phone,
             steps: [loginPage, "authenticate 302 login,otp"]),
        Case(name: "second OTP device, v2", scenario: "keycloak-v2", user: "dave", password: "dave-pw", seed: tablet,
             steps: [loginPage, "authenticate 200 login,otp,selectedCredentialId", "authenticate 302 login,otp,selectedCredentialId"]),
        Case(name: "second OTP device, Keycloakify", scenario: "keycloakify", user: "dave", password: "dave-pw", seed: tablet,
             steps: [loginPage, "authenticate 200 login,otp,selectedCredentialId", "authenticate 302 login,otp,selectedCredentialId"]),
        Case(name: "OTP or passkey: the code", scenario: "keycloak", user: "gina", password: "gina-pw", seed: phone,
             steps: [loginPage, "authenticate 302 login,otp"]),
    ]

    /// Runs the binary for a case: the password from a file and the seed
    /// from the environment, as a CI job would pass them.
    static func run(_ item: Case, fx: Fixture, base: String? = nil, extra: [String] = []) async throws -> RunResult {
        if let config = item.config { try httpPost("\(fx.base)/_config/\(fx.run)", json: config) }
        var arguments = ["--issuer", "\(base ?? fx.base)/t/\(fx.run)/\(item.scenario)/realms/demo", "--client-id", "public-app",
                         "--redirect-uri", Fixture.redirect]
        if !item.user.isEmpty { arguments += ["--form", "username=\(item.user)"] }
        let path = NSTemporaryDirectory() + "authcode-e2e-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let password = item.password {
            try password.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--form", "password=@" + path]
        }
        return try await authcodeRun(arguments + item.extra + extra, env: item.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:])
    }

    /// What each login-actions POST received, and how it was answered.
    static func steps(_ fx: Fixture) throws -> [String] {
        try fx.hits().filter { $0.method == "POST" && $0.path.contains("/login-actions/") }.map { hit in
            "\(hit.endpoint) \(hit.status.map(String.init) ?? "-") \(hit.form.keys.sorted().joined(separator: ","))"
        }
    }

    @Test(arguments: logins)
    func logsIn(_ item: Case) async throws {
        let fx = try await Fixture.make()
        let result = try await Self.run(item, fx: fx)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
        let steps = try Self.steps(fx)
        #expect(steps == item.steps, "\(steps)")
        expectNoSecrets(in: result, fixture: fx, extra: [item.password, item.seed].compactMap { $0 })
    }

    static let refusals: [Case] = [
        Case(name: "wrong password, keycloak", scenario: "keycloak", user: "alice", password: "wrong-pw-1", steps: [loginPage], exit: 6, stderr: [
            "authcode: error: login rejected: Invalid username or password. (\(Self.actions("keycloak"))/authenticate)",
            "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).",
        ]),
        Case(name: "wrong password, keycloak.v2", scenario: "keycloak-v2", user: "alice", password: "wrong-pw-1", steps: [loginPage], exit: 6, stderr: [
            "authcode: error: login rejected: Invalid username or password. (\(Self.actions("keycloak-v2"))/authenticate)",
            "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).",
        ]),
        Case(name: "wrong password, Keycloakify", scenario: "keycloakify", user: "alice", password: "wrong-pw-1", steps: [loginPage], exit: 6, stderr: [
            "authcode: error: login rejected: Invalid username or password. (\(Self.actions("keycloakify"))/authenticate)",
            "Keycloak turned down the credentials given with --form; check them (-v shows each step, secrets redacted).",
        ]),
        Case(name: "unknown user, username first", scenario: "keycloak-username-first", user: "nobody", password: "wrong-pw-1",
             steps: ["authenticate 200 login,username"], exit: 6, stderr: [
            "authcode: error: login rejected: Invalid username or email. (\(Self.actions("keycloak-username-first"))/authenticate)",
            "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).",
        ]),
        Case(name: "OTP seed of no device", scenario: "keycloakify", user: "carol", password: "carol-pw", seed: tablet,
             steps: [loginPage, "authenticate 200 login,otp,selectedCredentialId"], exit: 6, stderr: [
            "authcode: error: login rejected: Invalid authenticator code. (\(Self.actions("keycloakify"))/authenticate)",
            "Keycloak turned down the code made from --totp-secret; check the seed (algorithm, digits, period) and this machine's clock.",
        ]),
        Case(name: "update password", scenario: "keycloak", user: "newpass", password: "newpass-pw", steps: [login], exit: 6, stderr: [
            "authcode: error: the Keycloak login stops at a required action: update the password (UPDATE_PASSWORD) (\(Self.actions("keycloak"))/required-action)",
            hint,
        ]),
        Case(name: "update profile, v2", scenario: "keycloak-v2", user: "Profile", password: "profile-pw", steps: [login], exit: 6, stderr: [
            "authcode: error: the Keycloak login stops at a required action: update the profile (UPDATE_PROFILE) (\(Self.actions("keycloak-v2"))/required-action)",
            hint,
        ]),
        Case(name: "verify e-mail, Keycloakify", scenario: "keycloakify", user: "Verify", password: "verify-pw", steps: [login], exit: 6, stderr: [
            "authcode: error: the Keycloak login stops at a required action: verify the e-mail address (VERIFY_EMAIL) (\(Self.actions("keycloakify"))/required-action)",
            hint,
        ]),
        Case(name: "configure OTP", scenario: "keycloak", user: "otpsetup", password: "otpsetup-pw", seed: phone, steps: [login], exit: 6, stderr: [
            "authcode: error: the Keycloak login stops at a required action: set up an authenticator app (CONFIGURE_TOTP) (\(Self.actions("keycloak"))/required-action)",
            hint,
        ]),
        Case(name: "locked by brute-force detection", scenario: "keycloak-bruteforce", user: "locked", password: "locked-pw",
             config: #"{"keycloak":{"transparent_user_message":true}}"#, steps: [loginPage], exit: 6, stderr: [
            "authcode: error: login rejected: Account is temporarily disabled; contact your administrator or retry later. (\(Self.actions("keycloak-bruteforce"))/authenticate)",
            "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).",
        ]),
        Case(name: "disabled account", scenario: "keycloak", user: "Disabled", password: "disabled-pw", steps: [loginPage], exit: 6, stderr: [
            "authcode: error: login rejected: Account is disabled, contact your administrator. (\(Self.actions("keycloak"))/authenticate)",
            "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).",
        ]),
        Case(name: "a passkey asked for, no --passkey", scenario: "keycloak-v2", user: "erin", password: "erin-pw", steps: [loginPage], exit: 6, stderr: [
            "authcode: error: the login asks for a passkey, and no --passkey was given (\(Self.actions("keycloak-v2"))/authenticate)",
            "Give the user's passkey file with --passkey FILE, or enrol one on a login that offers it with --passkey FILE --passkey-register (README \"Passkeys\").",
        ]),
        Case(name: "the WebAuthn page without the driver", scenario: "keycloak", user: "erin", password: "erin-pw", extra: ["--idp", "none"],
             steps: [loginPage], exit: 6, stderr: [
            "authcode: error: the login page needs JavaScript (no HTML form) (\(Self.actions("keycloak"))/authenticate)",
            "authcode runs no scripts: log in through the server's JSON API with --step 'POST URL {\"username\":…}' before the authorization request (README: \"Identity providers\").",
        ]),
        Case(name: "a passkey to register, no --passkey-register", scenario: "keycloak", user: "keysetup", password: "keysetup-pw", steps: [login], exit: 6, stderr: [
            "authcode: error: the login asks to register a passkey, and --passkey-register was not given (\(Self.actions("keycloak"))/required-action)",
            "Registering enrols a new factor on the account; to let authcode do it, pass --passkey-register with a --passkey FILE that does not exist yet.",
        ]),
    ]

    static func actions(_ scenario: String) -> String { "SCENARIO:\(scenario)" }

    @Test(arguments: refusals)
    func stops(_ item: Case) async throws {
        let fx = try await Fixture.make()
        let result = try await Self.run(item, fx: fx)
        let place = "\(fx.base)/t/\(fx.run)/\(item.scenario)/realms/demo/login-actions"
        let expected = item.stderr.map { $0.replacingOccurrences(of: Self.actions(item.scenario), with: place) }
        #expect(result.exitCode == item.exit, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").map(String.init) == expected, "\(result)")
        #expect(try Self.steps(fx) == item.steps)
        #expect(try fx.hits(to: "token").isEmpty)
        expectNoSecrets(in: result, fixture: fx, extra: [item.password, item.seed].compactMap { $0 })
    }
}

extension KeycloakReplicaTests {
    /// The replica reached as `localhost`: WebAuthn has no RP ID for an IP address.
    static func localhost(_ fx: Fixture) -> String { fx.base.replacingOccurrences(of: "127.0.0.1", with: "localhost") }

    static func passkeyFile(rpID: String, credentialID: String, userHandle: String, jwk: String) throws -> String {
        let path = NSTemporaryDirectory() + "authcode-passkey-\(UUID().uuidString).json"
        try #"{"rpId":"\#(rpID)","credentialId":"\#(credentialID)","userHandle":"\#(userHandle)","privateKey":\#(jwk),"signCount":0}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    static func signCount(_ path: String) throws -> Int? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return object?["signCount"] as? Int
    }

    /// A passkey's whole life on one account, each answer checked by
    /// py_webauthn in the replica: registered on a first login with
    /// --passkey-register (FILE made 0600), used on the next (signCount
    /// rising in FILE), an existing FILE never replaced, a FILE for another
    /// rpId signing nothing; passwordless with a known key and a foreign one.
    @Test func aPasskeyIsRegisteredThenUsed() async throws {
        let fx = try await Fixture.make()
        let base = Self.localhost(fx)
        let file = NSTemporaryDirectory() + "authcode-passkey-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let keysetup = Case(name: "register", scenario: "keycloak-v2", user: "keysetup", password: "keysetup-pw")

        let registered = try await Self.run(keysetup, fx: fx, base: base, extra: ["--passkey", file, "--passkey-register"])
        expectTokenJSON(registered)
        #expect(registered.stderr.isEmpty, "\(registered)")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try Self.signCount(file) == 0)
        let key = try String(contentsOfFile: file, encoding: .utf8)

        let used = try await Self.run(keysetup, fx: fx, base: base, extra: ["--passkey", file])
        expectTokenJSON(used)
        #expect(try Self.signCount(file) == 1)
        let again = try await Self.run(keysetup, fx: fx, base: base, extra: ["--passkey", file, "--passkey-register"])
        expectTokenJSON(again)
        #expect(try Self.signCount(file) == 2, "a FILE that holds a passkey is used, not replaced")

        let steps = try Self.steps(fx)
        #expect(steps == ["authenticate 302 credentialId,login,password,username", "required-action 302 attestationObject,authenticatorLabel,clientDataJSON,error,logout-sessions,publicKeyCredentialId,transports"]
                + Array(repeating: ["authenticate 200 credentialId,login,password,username", "authenticate 302 authenticatorData,clientDataJSON,credentialId,error,signature,userHandle"], count: 2).flatMap { $0 },
                "\(steps)")

        // The same key for another site: refused before anything is signed.
        let elsewhere = try Self.passkeyFile(rpID: "example.com", credentialID: "AAEC", userHandle: "AAEC",
                                             jwk: #"{"kty":"EC","crv":"P-256","x":"-DnW1jFT1sLgD69W2xBY2UUSAwjewtkw7oJ9KYx9104","y":"L81agxtf4rP_Hq1cScO4FF8uEiTtSaqfJmeoQGfvJpc","d":"zHrYfha7z1QdiFdZKVfMr3SJ2VIyUcozxMx5X8t-7Oc"}"#)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let wrongSite = try await Self.run(keysetup, fx: fx, base: base, extra: ["--passkey", elsewhere])
        #expect(wrongSite.exitCode == 6)
        #expect(wrongSite.errorLine == "authcode: error: the login asks for a passkey of 'localhost', and the one in --passkey is for 'example.com'; nothing was signed (\(base)/t/\(fx.run)/keycloak-v2/realms/demo/login-actions/authenticate)",
                "\(wrongSite)")
        #expect(try Self.signCount(elsewhere) == 0)

        for result in [registered, used, again, wrongSite] {
            expectNoSecrets(in: result, fixture: fx, extra: ["keysetup-pw", key, "zHrYfha7z1QdiFdZKVfMr3SJ2VIyUcozxMx5X8t-7Oc"])
            #expect(!result.stderr.contains("\"d\""), "no key on stderr")
        }
    }

    /// keycloak.md's pre-registered passkeys: henry's logs in with no
    /// username at all (passwordless); erin's, a second factor, is unknown
    /// to the passwordless step, in Keycloak's words; gina's OTP comes
    /// first, and without a seed the driver tries another way, to the passkey.
    @Test(arguments: [
        ("henry", "keycloak-passwordless", "c48a0afd-160a-5cd8-aeab-c3bba9452b9c", "mjMDa9tfS9lQJMwRSQhIqoud2V18tyZRVL5WVEur4mI",
         #"{"kty":"EC","crv":"P-256","x":"6C2BFB890KcjztZ9LkpOYPBCscEr-6vbv1QVtRLq6YM","y":"0Sqq25F0t7LMbujqdzxHwU1XdYFirsaDvH9dOO-SNX0","d":"GrgTnT7SZ0Nwd35w6bLZTdTHvEuu8isAcJrLwYGsYhM"}"#),
        ("erin", "keycloak-passwordless", "ca17a2b2-6660-5d39-a730-241360206ac4", "RuCPPGygqYEXq5VV3PMLLt9Z1C8hCCWyGBppHbiXI4k",
         #"{"kty":"EC","crv":"P-256","x":"-DnW1jFT1sLgD69W2xBY2UUSAwjewtkw7oJ9KYx9104","y":"L81agxtf4rP_Hq1cScO4FF8uEiTtSaqfJmeoQGfvJpc","d":"zHrYfha7z1QdiFdZKVfMr3SJ2VIyUcozxMx5X8t-7Oc"}"#),
        ("gina", "keycloak", "757e58c3-b0b6-511d-a28f-aa0ddc4fef49", "q9gulqubaBFcOXvksXtuCQeDJeqdmkEXly_eWtO35C0",
         #"{"kty":"EC","crv":"P-256","x":"xgK9o7SgLKsKIZao_zBM_yQDAn5EYHHlqeyE33bu5Mw","y":"8KGJEyu6IhUnee4Qwj1f28WxnUqPfSgknRTEJ1j2_io","d":"lEVgNJlnAoX3fF_kbrw7s9QjL81FR8eAP2Nhdp7MCRg"}"#),
    ])
    func aKnownPasskey(user: String, scenario: String, id: String, credentialID: String, jwk: String) async throws {
        let fx = try await Fixture.make()
        let base = Self.localhost(fx)
        // userHandle: the user's id (uuid5 of "keycloak-replica/<user>"), as keycloak.md says.
        let file = try Self.passkeyFile(rpID: "localhost", credentialID: credentialID, userHandle: Data(id.utf8).base64URL, jwk: jwk)
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Passwordless: no username at all, the username page's passkey button.
        let item = Case(name: user, scenario: scenario, user: user == "gina" ? user : "", password: user == "gina" ? "gina-pw" : nil)
        let result = try await Self.run(item, fx: fx, base: base, extra: ["--passkey", file])
        let assertion = "authenticatorData,clientDataJSON,credentialId,error,signature,userHandle"
        let actions = "\(base)/t/\(fx.run)/\(scenario)/realms/demo/login-actions"
        switch user {
        case "erin":
            #expect(result.exitCode == 6)
            #expect(result.stderr.split(separator: "\n").map(String.init) == [
                "authcode: error: login rejected: Unknown user authenticated by the Passkey. (\(actions)/authenticate)",
                "Keycloak turned down the passkey in --passkey; give the file this user enrolled, or enrol one with --passkey-register.",
            ], "\(result)")
            #expect(try Self.steps(fx) == ["authenticate 200 \(assertion)"])
        case "gina":
            expectTokenJSON(result)
            #expect(try Self.steps(fx) == [Self.loginPage, "authenticate 200 tryAnotherWay", "authenticate 200 authenticationExecution", "authenticate 302 \(assertion)"])
        default:
            expectTokenJSON(result)
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(try Self.signCount(file) == 1)
            #expect(try Self.steps(fx) == ["authenticate 302 \(assertion)"])
        }
        expectNoSecrets(in: result, fixture: fx, extra: [jwk])
    }

    /// `-v` names the driver and each of its steps, and no secret.
    @Test func theTraceNamesEachStep() async throws {
        let fx = try await Fixture.make()
        let item = Case(name: "trace", scenario: "keycloakify", user: "dave", password: "dave-pw", seed: Self.tablet)
        let result = try await Self.run(item, fx: fx, extra: ["-v"])
        expectTokenJSON(result)
        let steps = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* keycloak") }.map(String.init)
        let auth = "\(fx.base)/t/\(fx.run)/keycloakify/realms/demo/protocol/openid-connect/auth"
        let actions = "\(fx.base)/t/\(fx.run)/keycloakify/realms/demo/login-actions/authenticate"
        // Each request's own line names the driver and the step.
        #expect(steps == [
            "* keycloak login: driver takes \(auth)",
            "* keycloak: username and password",
            "* keycloak login: driver takes \(actions)",
            "* keycloak: one-time code for the OTP device 'Phone'",
            "* keycloak: the code was turned down for 'Phone'",
            "* keycloak: one-time code for the OTP device 'Tablet'",
        ], "\(result)")
        let codes = try fx.hits().compactMap { $0.form["otp"] }
        expectNoSecrets(in: result, fixture: fx, extra: ["dave-pw", Self.tablet] + codes)
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// The module's `run`, reachable from a type that has its own `run`.
func authcodeRun(_ arguments: [String], env: [String: String] = [:]) async throws -> RunResult {
    try await run(arguments, env: env)
}
