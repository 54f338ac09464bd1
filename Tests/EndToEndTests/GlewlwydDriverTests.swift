import Foundation
import Testing

/// The Glewlwyd driver (Walk/Drivers/Glewlwyd) against the real Glewlwyd
/// 2.7.5 (Fixtures/glewlwyd/README.md, "Second factors"): default flags only —
/// `--form username/password`, `--totp-secret` for a TOTP user, `--passkey`
/// (and `--passkey-register` the first time) for a passkey user. Glewlwyd is
/// the verifier of every code and every passkey answer. Each test takes its
/// own users: Glewlwyd takes one TOTP code per user per 30 s, and a
/// passkey user's state lasts as long as the server.
@Suite("Glewlwyd driver", .serialized)
struct GlewlwydDriverTests {
    private func flow(_ g: GlewlwydServer.Info, scope: String) -> [String] {
        ["--issuer", g.issuer(), "--client-id", g.publicClient, "--scope", scope, "--redirect-uri", g.redirectURI]
    }

    /// stderr's `authcode:` lines. The POST→GET fallback (Glewlwyd copies
    /// the POST's fields into login.html's callback_url) works, so it says
    /// nothing without -v (README "How the walk works", step 2).
    private func authcodeLines(_ result: RunResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("authcode:") }
    }

    private func driverTrace(_ result: RunResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("* glewlwyd") }
    }

    enum Login: String, CaseIterable, Sendable { case password, totp }

    /// Password (alice, scope openid) and password + TOTP (bob, scope
    /// `openid totp`): a token with Glewlwyd's amr, `-v` naming the driver
    /// and each step, and no secret on stderr.
    @Test(arguments: Login.allCases)
    func logsInWithDefaultFlags(_ login: Login) async throws {
        let g = try await GlewlwydServer.driver.info()
        let secrets = try SecretDir()
        let user = g.totpUsers[0]
        let (scope, flags, env): (String, [String], [String: String]) = switch login {
        case .password: ("openid", g.loginFlags, [:])
        case .totp: ("openid \(user.scope)", try secrets.login(user.username, user.password), ["AUTHCODE_TOTP_SECRET": user.seed ?? ""])
        }
        let result = try await run(flow(g, scope: scope) + flags + ["-v"], env: env)
        let object = expectTokenJSON(result)
        #expect(object["scope"] as? String == scope, "\(result)")
        // The POST authorization request carries no --form value (README
        // "How the walk works", step 2), so Glewlwyd copies none into login.html's URL and nothing
        // falls back: no note, even with -v.
        #expect(authcodeLines(result) == [], "\(result)")
        let page = "* glewlwyd login: driver takes \(g.base)/login.html"
        let done = "* glewlwyd: logged in; the authorization request again with g_continue"
        switch login {
        case .password:
            #expect(driverTrace(result) == [page, "* glewlwyd: password", "* glewlwyd: schemes", done],
                    "\(result)")
        case .totp:
            #expect(jwtPart(object["id_token"] as? String, 1)["amr"] as? [String] == ["password", "otp"], "\(result)")
            #expect(driverTrace(result) == [
                page, "* glewlwyd: password", "* glewlwyd: grant check",
                "* glewlwyd: granting \(scope) to \(g.publicClient), as the user does on the login page", "* glewlwyd: grant",
                "* glewlwyd: schemes", "* glewlwyd: scope totp asks for 1 of otp; answering otp 'otp'",
                "* glewlwyd: one-time code (otp)", done,
            ], "\(result)")
        }
        expectNoSecrets(in: result, extra: [g.password, user.password, user.seed ?? ""])
    }

    enum Refusal: String, CaseIterable, Sendable {
        case wrongPassword, noForm, noTOTPSecret, wrongTOTPSeed, noPasskey, passkeyFileTaken
    }

    /// Each way the login stops, exit 6 with one line: Glewlwyd's answer as
    /// its login app shows it ("Authentication error" for its empty 401), the
    /// factor the user must give, the flag a registration needs.
    @Test(arguments: Refusal.allCases)
    func stops(_ refusal: Refusal) async throws {
        let g = try await GlewlwydServer.driver.info()
        let secrets = try SecretDir()
        let (bob2, bob3, carol3, carol4) = (g.totpUsers[1], g.totpUsers[2], g.passkeyUsers[2], g.passkeyUsers[3])
        let api = "\(g.base)/api"
        let (arguments, env, line): ([String], [String: String], String) = switch refusal {
        case .wrongPassword:
            (flow(g, scope: "openid") + (try secrets.login(g.username, "not-wonderland")), [:],
             "login rejected: Authentication error (\(api)/auth/)")
        case .noForm:
            (flow(g, scope: "openid"), [:],
             "the Glewlwyd login asks for username, password, and no --form value fills them (\(g.base)/login.html)")
        case .noTOTPSecret:
            (flow(g, scope: "openid \(bob2.scope)") + (try secrets.login(bob2.username, bob2.password)), [:],
             "the Glewlwyd login asks for a one-time code (\(api)/auth/scheme/)")
        case .wrongTOTPSeed:
            (flow(g, scope: "openid \(bob3.scope)") + (try secrets.login(bob3.username, bob3.password)),
             ["AUTHCODE_TOTP_SECRET": "JBSWY3DPEHPK3PXP"], "login rejected: Authentication error (\(api)/auth/)")
        case .noPasskey:
            (flow(g, scope: "openid \(carol4.scope)") + (try secrets.login(carol4.username, carol4.password)), [:],
             "the login asks to register a passkey, and --passkey-register was not given (\(api)/auth/scheme/)")
        case .passkeyFileTaken:
            // A FILE that holds a passkey already (one Glewlwyd never saw) is never replaced.
            (flow(g, scope: "openid \(carol3.scope)") + (try secrets.login(carol3.username, carol3.password))
                + ["--passkey", try secrets.file("taken.json", try freshPasskey(rpID: g.rpID)), "--passkey-register"], [:],
             "the login asks to register a passkey, and '\(secrets.path)/taken.json' already holds one; authcode never replaces it (\(api)/profile/scheme/register/)")
        }
        let result = try await run(arguments, env: env)
        expectFailure(result, exit: 6, [])
        // No --form value at all: the walk tries the GET authorization request too (its note comes first).
        #expect(result.errorLine == "authcode: error: " + line, "\(result)")
        expectNoSecrets(in: result, extra: [g.password, bob2.password, carol3.password, "not-wonderland"])
    }

    /// A passkey's life: registered on a first login (`--passkey-register`,
    /// the profile API, then the login's assertion), used on a second
    /// (signCount rising in FILE), refused by Glewlwyd when signed by a key
    /// it does not know for that credential, and named when no `--passkey`
    /// is given. Glewlwyd verifies every registration and assertion.
    @Test func passkeyRegisteredThenUsed() async throws {
        let g = try await GlewlwydServer.driver.info()
        let secrets = try SecretDir()
        let (carol, carol2) = (g.passkeyUsers[0], g.passkeyUsers[1])
        let scope = "openid \(carol.scope)"
        let file = secrets.fresh("carol.json")
        let login = flow(g, scope: scope) + (try secrets.login(carol.username, carol.password))
        let first = try await run(login + ["--passkey", file, "--passkey-register", "-v"])
        let token = expectTokenJSON(first)
        #expect(jwtPart(token["id_token"] as? String, 1)["amr"] as? [String] == ["password", "webauthn"], "\(first)")
        #expect(driverTrace(first).contains("* glewlwyd: passkey registration: register-credential"), "\(first)")
        #expect(try passkeyCount(file) == 1)
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        let second = try await run(login + ["--passkey", file])
        #expect(expectTokenJSON(second)["scope"] as? String == scope, "\(second)")
        #expect(try passkeyCount(file) == 2, "the count rose and was saved")
        // Another user's fresh key, with carol's credential ID: Glewlwyd refuses the signature.
        let other = secrets.fresh("carol2.json")
        _ = expectTokenJSON(try await run(flow(g, scope: scope) + (try secrets.login(carol2.username, carol2.password))
            + ["--passkey", other, "--passkey-register"]))
        let forged = try secrets.file("forged.json", try splice(credentialOf: file, keyOf: other))
        let refused = try await run(login + ["--passkey", forged])
        expectFailure(refused, exit: 6, [])
        #expect(refused.errorLine == "authcode: error: login rejected: Authentication error (\(g.base)/api/auth/)", "\(refused)")
        let without = try await run(login)
        expectFailure(without, exit: 6, [])
        #expect(without.errorLine == "authcode: error: the login asks for a passkey, and no --passkey was given (\(g.base)/api/auth/scheme/)",
                "\(without)")
        for result in [first, second, refused, without] {
            expectNoSecrets(in: result, extra: [carol.password, carol2.password] + (try privateKeys([file, other])))
        }
    }

    /// A passkey file for `rpID` with a fresh P-256 key (PyPI `cryptography`), counter 0.
    private func freshPasskey(rpID: String) throws -> String {
        let script = """
            import base64, json, os
            from cryptography.hazmat.primitives.asymmetric import ec
            b = lambda v: base64.urlsafe_b64encode(v).rstrip(b"=").decode()
            k = ec.generate_private_key(ec.SECP256R1()); n = k.public_key().public_numbers()
            print(json.dumps({"rpId": "\(rpID)", "credentialId": b(os.urandom(32)), "userHandle": b(os.urandom(16)), "signCount": 0,
                              "privateKey": {"kty": "EC", "crv": "P-256", "x": b(n.x.to_bytes(32, "big")), "y": b(n.y.to_bytes(32, "big")),
                                             "d": b(k.private_numbers().private_value.to_bytes(32, "big"))}}))
            """
        return try runTool(DjangoServer.python() ?? "python3", ["-c", script], stdin: Data()).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func passkeyObject(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func passkeyCount(_ path: String) throws -> Int? { try passkeyObject(path)["signCount"] as? Int }

    private func privateKeys(_ paths: [String]) throws -> [String] {
        try paths.compactMap { ((try passkeyObject($0))["privateKey"] as? [String: Any])?["d"] as? String }
    }

    /// FILE `credential`'s rpId, credential ID, user handle and count with FILE `key`'s private key.
    private func splice(credentialOf credential: String, keyOf key: String) throws -> String {
        var object = try passkeyObject(credential)
        object["privateKey"] = try passkeyObject(key)["privateKey"]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// Issue 31 item 3: the POST→GET fallback every Glewlwyd login takes
    /// works, so a run without -v prints nothing on stderr.
    @Test func logsInQuietlyWithoutVerbose() async throws {
        let g = try await GlewlwydServer.driver.info()
        let result = try await run(flow(g, scope: "openid") + g.loginFlags)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
    }
}
