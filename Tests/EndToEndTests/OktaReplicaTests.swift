import Foundation
import Testing

/// The Okta driver against the Okta replica (Fixtures/server/replicas/
/// okta.md: a Classic org and an Identity Engine org, written from Okta's
/// widget, SDK and API sources, TOTP checked by pyotp), with the built
/// binary and default flags: `--issuer`, the client, `--form username/
/// password` and `--totp-secret` where the user has TOTP.
@Suite("Okta replica")
struct OktaReplicaTests {
    static let google = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let oktaVerify = "MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"

    struct Login: Sendable, CustomStringConvertible {
        let scenario: String
        let user: String
        var seed: String?
        var config: String?
        /// The replica's API paths the login must have used, in order (no repeats).
        let steps: [String]
        var description: String { "\(scenario) \(user)\(config.map { " " + $0 } ?? "")" }
    }

    static func arguments(_ fx: Fixture, _ scenario: String, user: String) -> [String] {
        ["--issuer", fx.issuer(scenario) + "/oauth2/default", "--client-id", "public-app", "--redirect-uri", Fixture.redirect]
            + ReplicaUser.form(user)
    }

    static func env(_ seed: String?) -> [String: String] {
        seed.map { ["AUTHCODE_TOTP_SECRET": $0] } ?? [:]
    }

    /// The replica's API calls of a run, each path once, in order.
    static func apiSteps(_ hits: [Hit], org: String) -> [String] {
        let prefix = URL(string: org)!.path + "/"
        var steps: [String] = []
        for hit in hits where hit.path.hasPrefix(prefix) {
            let rest = String(hit.path.dropFirst(prefix.count))
            guard rest.hasPrefix("api/") || rest.hasPrefix("idp/") || rest.hasPrefix("login/token") else { continue }
            let step = rest.hasPrefix("api/v1/authn/factors/") ? "api/v1/authn/factors/verify" : rest
            if steps.last != step { steps.append(step) }
        }
        return steps
    }

    static let classic = ["idp/idx/introspect", "api/v1/authn"]
    static let classicTOTP = classic + ["api/v1/authn/factors/verify"]
    static let idx = ["idp/idx/introspect", "idp/idx/identify", "idp/idx/challenge/answer", "login/token/redirect"]

    @Test(arguments: [
        Login(scenario: "okta-classic", user: "alice", steps: classic),
        Login(scenario: "okta-classic", user: "carol", seed: google, steps: classicTOTP),
        Login(scenario: "okta-classic", user: "dave", seed: oktaVerify, steps: classicTOTP),
        Login(scenario: "okta-classic", user: "alice", config: #"{"okta_page_shape":"var"}"#, steps: classic),
        Login(scenario: "okta-idx", user: "alice", steps: idx),
        Login(scenario: "okta-idx", user: "carol", seed: google, steps: idx),
        Login(scenario: "okta-idx", user: "dave", seed: oktaVerify,
              steps: ["idp/idx/introspect", "idp/idx/identify", "idp/idx/challenge/answer", "idp/idx/challenge", "idp/idx/challenge/answer",
                      "idp/idx/challenge", "idp/idx/challenge/answer", "login/token/redirect"]),
        Login(scenario: "okta-idx", user: "carol", seed: google,
              config: #"{"okta_page_shape":"var","okta_success_shape":"remediation","okta_identify_password":true}"#,
              steps: ["idp/idx/introspect", "idp/idx/identify", "idp/idx/challenge/answer", "login/token/redirect"]),
    ])
    func signsInWithDefaultFlags(_ login: Login) async throws {
        let fx = try await Fixture.make()
        if let config = login.config { try fx.configure(config) }
        let result = try await run(Self.arguments(fx, login.scenario, user: login.user), env: Self.env(login.seed), stdin: "wonderland\n")
        expectTokenJSON(result)
        #expect(result.stderr == "", "\(result)")
        let hits = try fx.hits()
        #expect(Self.apiSteps(hits, org: fx.issuer(login.scenario)) == login.steps, "\(hits.map(\.path))")
        if login.scenario == "okta-classic" {
            let authorize = hits.filter { $0.endpoint == "authorize" }
            #expect(authorize.count == 2 && authorize[1].form["sessionToken"]?.isEmpty == false, "the sessionToken went back to authorize: \(authorize)")
            #expect(hits.first { $0.endpoint == "authn" }?.json["username"] == login.user)
        } else {
            #expect(hits.first { $0.endpoint == "identify" }?.json["identifier"] == login.user)
        }
        #expect(try fx.hits(to: "token").count == 1)
        expectNoSecrets(in: result, fixture: fx, extra: [Self.google, Self.oktaVerify] + ReplicaSecrets.issued(hits))
    }

    struct Stop: Sendable, CustomStringConvertible {
        let scenario: String
        let user: String
        var password = "wonderland"
        var seed: String?
        /// The error line's text and the place's path after the org.
        let line: String
        let path: String
        let hint: String
        var description: String { "\(scenario) \(user): \(line)" }
    }

    static let rejected = "Okta turned down the credentials given with --form; check them (-v shows each step, secrets redacted)."
    static let codeRejected = "Okta turned down the code made from --totp-secret; check the seed (algorithm, digits, period) and this machine's clock."
    static let unsupported = "Enrol a factor authcode can answer for the test user: a TOTP authenticator app (pass its seed with --totp-secret)."
    static let action = "authcode cannot do this for the user; an administrator can take the action off the test user's account."
    static let needsSeed = "Pass the account's TOTP seed with --totp-secret (base32, or the otpauth:// URI of its QR code)."

    @Test(arguments: [
        Stop(scenario: "okta-classic", user: "alice", password: "not-the-password", line: "login rejected: Authentication failed", path: "api/v1/authn", hint: rejected),
        Stop(scenario: "okta-idx", user: "alice", password: "not-the-password", line: "login rejected: Password is incorrect", path: "idp/idx/challenge/answer", hint: rejected),
        Stop(scenario: "okta-classic", user: "pat", seed: google, line: "the Okta login asks for Okta Verify push (push), which authcode cannot answer",
             path: "api/v1/authn", hint: unsupported),
        Stop(scenario: "okta-idx", user: "pat", seed: google, line: "the Okta login asks for Okta Verify push (okta_verify, push), which authcode cannot answer",
             path: "idp/idx/challenge/answer", hint: unsupported),
        Stop(scenario: "okta-classic", user: "sam", seed: google, line: "the Okta login asks for an SMS code (sms), which authcode cannot answer",
             path: "api/v1/authn", hint: unsupported),
        Stop(scenario: "okta-idx", user: "sam", seed: google,
             line: "the Okta login asks for an SMS code (phone_number, sms) or a phone call (phone_number, voice), which authcode cannot answer",
             path: "idp/idx/challenge/answer", hint: unsupported),
        Stop(scenario: "okta-classic", user: "lou", line: "login rejected: the account is locked out (LOCKED_OUT)", path: "api/v1/authn", hint: rejected),
        Stop(scenario: "okta-idx", user: "lou", line: "login rejected: Authentication failed", path: "idp/idx/identify", hint: rejected),
        Stop(scenario: "okta-classic", user: "pete", line: "the Okta login stops at a required action: change the password (PASSWORD_EXPIRED)",
             path: "api/v1/authn", hint: action),
        Stop(scenario: "okta-idx", user: "pete", line: "the Okta login stops at a required action: change the expired password (reenroll-authenticator)",
             path: "idp/idx/challenge/answer", hint: action),
        Stop(scenario: "okta-classic", user: "carol", line: "the Okta login asks for a one-time code", path: "api/v1/authn", hint: needsSeed),
        Stop(scenario: "okta-idx", user: "carol", line: "the Okta login asks for a one-time code", path: "idp/idx/challenge/answer", hint: needsSeed),
        Stop(scenario: "okta-classic", user: "carol", seed: oktaVerify,
             line: "login rejected: Invalid Passcode/Answer: Your passcode doesn't match our records. Please try again.",
             path: "api/v1/authn/factors/uftgoogTotp0G0ogl0g4/verify", hint: codeRejected),
        Stop(scenario: "okta-idx", user: "dave", seed: "JBSWY3DPEHPK3PXP", line: "login rejected: Invalid code. Try again.",
             path: "idp/idx/challenge/answer", hint: codeRejected),
    ])
    func stopsWithOktasWordsAndExitSix(_ stop: Stop) async throws {
        let fx = try await Fixture.make()
        let result = try await run(Self.arguments(fx, stop.scenario, user: stop.user), env: Self.env(stop.seed), stdin: stop.password + "\n")
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: \(stop.line) (\(fx.issuer(stop.scenario))/\(stop.path))\n\(stop.hint)\n", "\(result)")
        let hits = try fx.hits()
        #expect(try fx.hits(to: "token").isEmpty)
        #expect(!hits.contains { $0.endpoint == "authorize" && $0.form["sessionToken"] != nil })
        expectNoSecrets(in: result, fixture: fx, extra: [stop.password] + [Self.google, Self.oktaVerify] + ReplicaSecrets.issued(hits))
    }

    /// `-v` names the driver, the API it chose and each step, and shows no
    /// password, code, state token, handle or session token.
    @Test(arguments: ["okta-classic", "okta-idx"])
    func verboseNamesTheDriverAndEachStep(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(Self.arguments(fx, scenario, user: "dave") + ["-v"], env: Self.env(Self.oktaVerify), stdin: "wonderland\n")
        expectTokenJSON(result)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* okta: ") }.map(String.init)
        let expected = scenario == "okta-classic" ? [
            "* okta: introspect (/idp/idx/introspect)",
            "* okta: no Identity Engine answer to introspect; signing in through the Classic Authentication API",
            "* okta: primary authentication (/api/v1/authn)",
            "* okta: verify GOOGLE TOTP factor",
            "* okta: the GOOGLE factor turned the code down; trying the next TOTP factor",
            "* okta: verify OKTA TOTP factor",
            "* okta: signed in; sending the authorization request again with the sessionToken",
        ] : [
            "* okta: introspect (/idp/idx/introspect)",
            "* okta: the org answers Identity Engine's introspect; signing in through its remediations",
            "* okta: identify (username)",
            "* okta: challenge-authenticator (password)",
            "* okta: select-authenticator-authenticate (google_otp, otp)",
            "* okta: challenge-authenticator (google_otp code)",
            "* okta: the code was turned down; trying the next TOTP authenticator",
            "* okta: select-authenticator-authenticate (okta_verify, totp)",
            "* okta: challenge-authenticator (okta_verify code)",
            "* okta: signed in; following the success link to the redirect_uri",
        ]
        #expect(lines == expected, "\(result)")
        #expect(result.stderr.contains("* okta login: driver takes \(fx.issuer(scenario))/"))
        let hits = try fx.hits()
        expectNoSecrets(in: result, fixture: fx, extra: [Self.google, Self.oktaVerify] + ReplicaSecrets.issued(hits))
    }
}
