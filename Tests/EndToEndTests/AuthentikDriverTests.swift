import Foundation
import Testing

/// The authentik driver (Walk/Drivers/Authentik) against the fixture's
/// authentik replica (Fixtures/server/replicas/authentik.md, written from
/// authentik's executor, stages and API schema), with default flags: each
/// stage the driver answers is a hop, its reads of the executor are not
/// (Walk/Drivers/DriverSession.swift). The replica is reached as
/// `http://localhost:PORT`, WebAuthn's relying party; its py_webauthn checks
/// every passkey answer. The POST authorization request always falls back
/// to GET: authentik's login keeps only the URL's query (authentik.md, step 1).
struct AuthentikDriverTests {
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    /// The scenario's issuer on `localhost`, and `--issuer … --client-id demo-app --redirect-uri …`.
    private func flow(_ fx: Fixture, _ scenario: String) -> (root: String, flags: [String]) {
        let root = fx.issuer(scenario).replacingOccurrences(of: "//127.0.0.1:", with: "//localhost:")
        return (root, ["--issuer", root + "/application/o/demo/", "--client-id", "demo-app", "--redirect-uri", Fixture.redirect])
    }

    private func authcodeLines(_ result: RunResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("authcode:") }
    }

    /// The components the executor was sent, in order (the replica's hits).
    private func answered(_ fx: Fixture) throws -> [String] {
        try fx.hits().filter { $0.method == "POST" && $0.path.contains("/api/v3/flows/executor/") }.map { $0.json["component"] ?? "?" }
    }

    /// A passkey file for the replica's pre-registered device of `name`
    /// (authentik.md, "Users": d and the credential ID from SHA-256 of fixed
    /// prefixes), made with PyPI `cryptography`.
    static func replicaPasskey(_ name: String, in secrets: borrowing SecretDir) throws -> String {
        let script = """
            import base64, hashlib, json
            from cryptography.hazmat.primitives.asymmetric import ec
            b = lambda v: base64.urlsafe_b64encode(v).rstrip(b"=").decode()
            n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
            d = int.from_bytes(hashlib.sha256(b"authentik-replica-webauthn-\(name)").digest(), "big") % n
            p = ec.derive_private_key(d, ec.SECP256R1()).public_key().public_numbers()
            print(json.dumps({"rpId": "localhost", "credentialId": b(hashlib.sha256(b"authentik-replica-credential-\(name)").digest()),
                              "userHandle": b(b"\(name)"), "signCount": 0,
                              "privateKey": {"kty": "EC", "crv": "P-256", "x": b(p.x.to_bytes(32, "big")), "y": b(p.y.to_bytes(32, "big")),
                                             "d": b(d.to_bytes(32, "big"))}}))
            """
        let json = try runTool(DjangoServer.python() ?? "python3", ["-c", script], stdin: Data())
        return try secrets.file("\(name).json", json.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    enum Login: String, CaseIterable, Sendable { case password, totp, consent, merged, passkeyLogin, passkeyFactor }

    /// Each way in: the token, the stages the executor was answered in
    /// order, the CSRF header the signed-in POSTs carried, no secret on stderr.
    @Test(arguments: Login.allCases)
    func logsIn(_ login: Login) async throws {
        let fx = try await Fixture.make()
        let secrets = try SecretDir()
        let scenario = switch login {
        case .consent: "authentik-consent"
        case .merged: "authentik-merged"
        case .passkeyLogin: "authentik-passkey"
        default: "authentik"
        }
        let (_, base) = flow(fx, scenario)
        let (user, password) = switch login {
        case .totp: ("carol", "carol-pw")
        case .passkeyFactor: ("erin", "erin-pw")
        default: ("alice", "wonderland")
        }
        var arguments = base
        var env = Fixture.demoSecretEnv
        switch login {
        case .passkeyLogin: arguments += ["--passkey", try Self.replicaPasskey("henry", in: secrets)]
        case .passkeyFactor: arguments += try secrets.login(user, password) + ["--passkey", try Self.replicaPasskey("erin", in: secrets)]
        case .totp: arguments += try secrets.login(user, password); env["AUTHCODE_TOTP_SECRET"] = Self.seed
        default: arguments += try secrets.login(user, password)
        }
        let result = try await run(arguments, env: env)
        expectTokenJSON(result)
        // The POST fell back to GET and that worked: not news without -v (README "How the walk works", step 2).
        #expect(authcodeLines(result) == [], "\(result)")
        let expected: [String] = switch login {
        case .password: ["ak-stage-identification", "ak-stage-password"]
        case .totp, .passkeyFactor: ["ak-stage-identification", "ak-stage-password", "ak-stage-authenticator-validate"]
        case .consent: ["ak-stage-identification", "ak-stage-password", "ak-stage-consent"]
        case .merged, .passkeyLogin: ["ak-stage-identification"]
        }
        #expect(try answered(fx) == expected)
        if login == .consent {
            let consent = try #require(try fx.hits().last { $0.json["component"] == "ak-stage-consent" })
            let cookie = (consent.headers["cookie"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("authentik_csrf=") }.map { String($0.dropFirst("authentik_csrf=".count)) }
            #expect(consent.headers["x-authentik-csrf"] != nil && consent.headers["x-authentik-csrf"] == cookie, "\(consent.headers)")
        }
        expectNoSecrets(in: result, fixture: fx, extra: [password, Self.seed])
    }

    enum Refusal: String, CaseIterable, Sendable {
        case wrongPassword, unknownUser, lockedUser, lockoutText, tooManyFailures, wrongCode, noCode, noPasskey, sms, duo
    }

    /// Each way the login stops, exit 6: authentik's own text (a field
    /// error, access denied), the factor the user must give, or the one
    /// authcode cannot answer.
    @Test(arguments: Refusal.allCases)
    func stops(_ refusal: Refusal) async throws {
        let fx = try await Fixture.make()
        let secrets = try SecretDir()
        let (root, base) = flow(fx, "authentik")
        let executor = root + "/api/v3/flows/executor/default-authentication-flow/"
        let config: String? = switch refusal {
        case .unknownUser: #"{"authentik": {"pretend_user_exists": false}}"#
        case .lockoutText: #"{"authentik": {"show_lockout_message": true}}"#
        case .tooManyFailures: #"{"authentik": {"failed_attempts_before_cancel": 1}}"#
        default: nil
        }
        if let config { try httpPost("\(fx.base)/_config/\(fx.run)", json: config) }
        let (user, password, seed): (String, String, String?) = switch refusal {
        case .wrongPassword, .tooManyFailures: ("alice", "not-wonderland", nil)
        case .unknownUser: ("nobody", "nobody-pw", nil)
        case .lockedUser, .lockoutText: ("locked", "locked-pw", nil)
        case .wrongCode: ("carol", "carol-pw", "JBSWY3DPEHPK3PXP")
        case .noCode: ("carol", "carol-pw", nil)
        case .noPasskey: ("erin", "erin-pw", nil)
        case .sms: ("sam", "sam-pw", nil)
        case .duo: ("dan", "dan-pw", nil)
        }
        let line = switch refusal {
        case .wrongPassword: "login rejected: Invalid password"
        case .unknownUser: "login rejected: Failed to authenticate."
        case .lockedUser, .tooManyFailures: "login rejected: Invalid password"
        // "locked" is this user's name, a --form value: redacted wherever it appears, authentik's text too.
        case .lockoutText: "login rejected: Your account has been [redacted] out due to too many failed attempts. Please contact your administrator."
        case .wrongCode: "login rejected: Invalid Token. Please ensure the time on your device is accurate and try again."
        case .noCode: "the Authentik login asks for a one-time code"
        case .noPasskey: "the login asks for a passkey, and no --passkey was given"
        case .sms: "the Authentik login asks for a code sent by SMS, which authcode cannot answer"
        case .duo: "the Authentik login asks for a Duo push, which authcode cannot answer"
        }
        var env = Fixture.demoSecretEnv
        if let seed { env["AUTHCODE_TOTP_SECRET"] = seed }
        let result = try await run(base + (try secrets.login(user, password)), env: env)
        expectFailure(result, exit: 6, [])
        #expect(result.errorLine == "authcode: error: \(line) (\(executor))", "\(result)")
        // One answer per stage up to the refusal, and never a second try.
        let answers = switch refusal {
        case .unknownUser: 1
        case .wrongCode: 3
        default: 2
        }
        let posts = try answered(fx)
        #expect(posts.count == answers, "\(posts)")
        expectNoSecrets(in: result, fixture: fx, extra: [password])
    }

    /// `-v` names the driver, each executor request and what it chose.
    @Test func verboseTraceNamesEachStep() async throws {
        let fx = try await Fixture.make()
        let secrets = try SecretDir()
        let (root, base) = flow(fx, "authentik")
        var env = Fixture.demoSecretEnv
        env["AUTHCODE_TOTP_SECRET"] = Self.seed
        let result = try await run(base + (try secrets.login("carol", "carol-pw")) + ["-v"], env: env)
        expectTokenJSON(result)
        let trace = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("* authentik") }
        #expect(result.stderr.contains("* falling back to GET: the Authentik driver does not know this page: the login would return to the authorization endpoint without the request's parameters (authentik keeps a GET request's query only)\n"), "\(result)")
        #expect(trace == [
            // The POST authorization request's page: taken, then left to the GET fallback before any credential.
            "* authentik login: driver takes \(root)/if/flow/default-authentication-flow/",
            "* authentik login: driver takes \(root)/if/flow/default-authentication-flow/",
            "* authentik: flow default-authentication-flow",
            "* authentik: identification", "* authentik: next stage",
            "* authentik: password", "* authentik: next stage",
            "* authentik: one-time code", "* authentik: next stage",
            "* authentik: flow default-authentication-flow done; on to \(root)/application/o/authorize/",
            "* authentik login: driver takes \(root)/if/flow/default-provider-authorization-implicit-consent/",
            "* authentik: flow default-provider-authorization-implicit-consent",
            "* authentik: flow default-provider-authorization-implicit-consent done; on to \(Fixture.redirect)",
        ], "\(result)")
        expectNoSecrets(in: result, fixture: fx, extra: ["carol-pw", Self.seed])
    }
}
