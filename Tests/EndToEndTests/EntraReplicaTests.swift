import Foundation
import Testing

/// The Entra ID driver against the Entra replica (and, for a federated
/// account, the AD FS replica the generic walk fills), Fixtures/server/
/// replicas/entra.md and adfs.md: written from saml2aws's AAD provider and
/// its captured pages and Microsoft's error-code reference; TOTP checked by
/// pyotp. The built binary, default flags.
@Suite("Entra ID replica")
struct EntraReplicaTests {
    static let tenant = "5d2c1e3f-0a4b-4c6d-8e9f-0123456789ab"
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    struct Login: Sendable, CustomStringConvertible {
        let user: String
        var password = "wonderland"
        var seed: String?
        var config: String?
        /// `UserName`/`Password`: a federated account's provider (AD FS) names its fields so.
        var federated = false
        var responseMode: String?
        /// The Entra and AD FS endpoints of the sign-in, in order (each once).
        let steps: [String]
        var description: String { user + (config.map { " " + $0 } ?? "") + (responseMode.map { " " + $0 } ?? "") }
    }

    static func arguments(_ fx: Fixture, user: String, federated: Bool = false) -> [String] {
        ["--issuer", fx.issuer("entra") + "/\(tenant)/v2.0", "--client-id", "public-app", "--redirect-uri", Fixture.redirect]
            + (federated ? ReplicaUser.form(user, usernameField: "UserName", passwordField: "Password") : ReplicaUser.form(user))
    }

    /// The sign-in's endpoints, each once, in order: what the replicas received.
    static func steps(_ hits: [Hit], _ fx: Fixture) -> [String] {
        var steps: [String] = []
        for hit in hits {
            let step: String
            switch hit.endpoint {
            case "GetCredentialType", "login", "BeginAuth", "EndAuth", "ProcessAuth", "kmsi", "skip", "login.srf", "jsdisabled": step = hit.endpoint
            case "ls": step = "adfs " + hit.method
            default: continue
            }
            if steps.last != step { steps.append(step) }
        }
        return steps
    }

    @Test(arguments: [
        Login(user: "alice@contoso.example", steps: ["GetCredentialType", "login", "kmsi"]),
        Login(user: "bob@contoso.example", password: "builder", seed: seed,
              steps: ["GetCredentialType", "login", "BeginAuth", "EndAuth", "ProcessAuth", "kmsi"]),
        Login(user: "frank@contoso.example", steps: ["GetCredentialType", "login", "skip", "kmsi"]),
        Login(user: "alice@contoso.example", config: #"{"entra_kmsi":false}"#, steps: ["GetCredentialType", "login"]),
        Login(user: "alice@contoso.example", responseMode: "form_post", steps: ["GetCredentialType", "login", "kmsi"]),
        Login(user: "erin@fabrikam.example", federated: true,
              steps: ["GetCredentialType", "adfs GET", "adfs POST", "adfs GET", "login.srf", "kmsi"]),
    ])
    func signsInWithDefaultFlags(_ login: Login) async throws {
        let fx = try await Fixture.make()
        if let config = login.config { try fx.configure(config) }
        let mode = login.responseMode.map { ["--response-mode", $0] } ?? []
        let result = try await run(Self.arguments(fx, user: login.user, federated: login.federated) + mode,
                                   env: login.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:], stdin: login.password + "\n")
        expectTokenJSON(result)
        #expect(result.stderr == "", "\(result)")
        let hits = try fx.hits()
        #expect(Self.steps(hits, fx) == login.steps, "\(hits.map(\.path))")
        #expect(hits.first { $0.endpoint == "GetCredentialType" }?.json["username"] == login.user)
        if let kmsi = hits.first(where: { $0.endpoint == "kmsi" }) {
            #expect(kmsi.form["LoginOptions"] == "3", "\"Stay signed in?\" is answered No")
        }
        if login.federated {
            #expect(!hits.contains { $0.endpoint == "login" }, "a federated account's password never goes to Entra")
            #expect(hits.first { $0.endpoint == "ls" && $0.method == "POST" }?.form["Password"] == login.password)
        } else {
            #expect(hits.first { $0.endpoint == "login" }?.form["passwd"] == login.password)
        }
        expectNoSecrets(in: result, fixture: fx, extra: [login.password, Self.seed] + ReplicaSecrets.issued(hits))
    }

    struct Stop: Sendable, CustomStringConvertible {
        let user: String
        var password = "wonderland"
        var seed: String?
        var config: String?
        var federated = false
        let line: String
        /// The place: a path after the scenario root (`entra` or `adfs`).
        let place: String
        let hint: String
        var description: String { "\(user): \(line)" }
    }

    static let rejected = "Microsoft Entra ID turned down the credentials given with --form; check them (-v shows each step, secrets redacted)."
    static let unsupported = "Enrol a factor authcode can answer for the test user: a TOTP authenticator app (pass its seed with --totp-secret)."
    static let login = "entra/\(tenant)/login"

    @Test(arguments: [
        Stop(user: "alice@contoso.example", password: "not-the-password",
             line: "login rejected: AADSTS50126: Error validating credentials due to invalid username or password.", place: login, hint: rejected),
        Stop(user: "alice@contoso.example", password: "not-the-password", config: #"{"entra_error_text":"empty"}"#,
             line: "login rejected: AADSTS50126 (invalid username or password)", place: login, hint: rejected),
        Stop(user: "mallory@contoso.example",
             line: "login rejected: AADSTS50053: The account is locked, you've tried to sign in too many times with an incorrect user ID or password.",
             place: login, hint: rejected),
        Stop(user: "nobody@contoso.example", line: "login rejected: AADSTS50034: The user account does not exist in the directory.", place: login, hint: rejected),
        Stop(user: "carol@contoso.example", seed: seed,
             line: "the Microsoft Entra ID login asks for Microsoft Authenticator push (PhoneAppNotification), which authcode cannot answer",
             place: login, hint: unsupported),
        Stop(user: "dave@contoso.example", seed: seed, line: "the Microsoft Entra ID login asks for an SMS code (OneWaySMS), which authcode cannot answer",
             place: login, hint: unsupported),
        Stop(user: "bob@contoso.example", password: "builder", line: "the Microsoft Entra ID login asks for a one-time code", place: login,
             hint: "Pass the account's TOTP seed with --totp-secret (base32, or the otpauth:// URI of its QR code)."),
        Stop(user: "bob@contoso.example", password: "builder", seed: "JBSWY3DPEHPK3PXP", line: "login rejected: OathCodeIncorrect",
             place: "entra/common/SAS/EndAuth",
             hint: "Microsoft Entra ID turned down the code made from --totp-secret; check the seed (algorithm, digits, period) and this machine's clock."),
        Stop(user: "erin@fabrikam.example", password: "not-the-password", federated: true,
             line: "login rejected: Incorrect user ID or password. Type the correct user ID and password, and try again.", place: "adfs/adfs/ls/",
             hint: "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted)."),
    ])
    func stopsWithEntrasWordsAndExitSix(_ stop: Stop) async throws {
        let fx = try await Fixture.make()
        if let config = stop.config { try fx.configure(config) }
        let result = try await run(Self.arguments(fx, user: stop.user, federated: stop.federated),
                                   env: stop.seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:], stdin: stop.password + "\n")
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: \(stop.line) (\(fx.base)/t/\(fx.run)/\(stop.place))\n\(stop.hint)\n", "\(result)")
        let hits = try fx.hits()
        #expect(try fx.hits(to: "token").isEmpty)
        #expect(!hits.contains { $0.endpoint == "jsdisabled" })
        expectNoSecrets(in: result, fixture: fx, extra: [stop.password, Self.seed] + ReplicaSecrets.issued(hits))
    }

    /// `-v` names the driver, each converged page and each call, says how
    /// "Stay signed in?" was answered, and shows no password, code, flow
    /// token, context or canary.
    @Test func verboseNamesThePagesAndEachStep() async throws {
        let fx = try await Fixture.make()
        let result = try await run(Self.arguments(fx, user: "bob@contoso.example") + ["-v"], env: ["AUTHCODE_TOTP_SECRET": Self.seed], stdin: "builder\n")
        expectTokenJSON(result)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* entra") }.map(String.init)
        let root = "\(fx.issuer("entra"))/\(Self.tenant)"
        #expect(lines == [
            "* entra login: driver takes \(root)/oauth2/v2.0/authorize",
            "* entra: page ConvergedSignIn",
            "* entra: GetCredentialType",
            "* entra: password (\(root)/login)",
            "* entra login: driver takes \(root)/login",
            "* entra: page ConvergedTFA",
            "* entra: BeginAuth (PhoneAppOTP)",
            "* entra: EndAuth (PhoneAppOTP)",
            "* entra: ProcessAuth",
            "* entra login: driver takes \(fx.issuer("entra"))/common/SAS/ProcessAuth",
            "* entra: page KmsiInterrupt",
            "* entra: \"Stay signed in?\": answering No (authcode keeps no cookies after the run)",
            "* entra: Stay signed in? No (KmsiInterrupt)",
        ], "\(result)")
        let hits = try fx.hits()
        expectNoSecrets(in: result, fixture: fx, extra: ["builder", Self.seed] + ReplicaSecrets.issued(hits))
    }
}
