import Foundation

/// Glewlwyd 2.7.5, Debian's package (Fixtures/glewlwyd/README.md), one per
/// suite, started on first use by Fixtures/glewlwyd/start.py: three OpenID
/// Connect instances (RS256, ES256, EdDSA id_tokens) with PAR, DPoP, RAR,
/// resource indicators, request objects and RFC 9207 iss on; a user; a public,
/// a confidential and a private_key_jwt client. `make test` installs the
/// package (`make glewlwyd`); without it every use throws, so its tests fail
/// with the install step named, never skip.
///
/// One per suite, each suite serialized: over SQLite, Glewlwyd shares one
/// database connection among its request threads and reads
/// `last_insert_rowid()` after each insert, so two requests at once can file
/// a code's scopes under another request's row ("FOREIGN KEY constraint
/// failed" in its DEBUG log) and the code is then refused at the token
/// endpoint with `invalid_code`. Suites run side by side, so one shared
/// server failed a test now and then (CI, stop 34).
actor GlewlwydServer {
    static let interop = GlewlwydServer()
    static let profile = GlewlwydServer()
    static let driver = GlewlwydServer()
    static let installHint = "Glewlwyd is not installed: run 'make glewlwyd' (Fixtures/glewlwyd/install.sh: "
        + "apt-get install glewlwyd dbconfig-no-thanks sqlite3), which 'make test' does first"

    /// A private key of the private_key_jwt client, generated at start; its public
    /// JWK is in the client's `jwks` property at Glewlwyd.
    struct ClientKey: Sendable {
        let alg: String
        let kid: String
        let pemPath: String
        let jwkPath: String
    }

    /// What start.py printed before READY.
    struct Info: Sendable {
        let base: String
        /// Issuer URL by name: `rs256`, `es256`, `eddsa` (the id_token algorithm of each instance).
        let issuers: [String: String]
        let username: String
        let password: String
        let publicClient: String
        let confidentialClient: String
        let confidentialSecret: String
        let privateKeyJWTClient: String
        /// By name: `rsa` (RS256), `ec` (ES256), `ed25519` (EdDSA).
        let clientKeys: [String: ClientKey]
        let redirectURI: String
        let resource: String
        /// The scope `resource` is registered under (also the RAR type's scope).
        let resourceScope: String
        let rarType: String
        let stateDir: String
        /// `TOTP_USER name password seed scope`, in start.py's order (bob, bob2, bob3):
        /// Glewlwyd takes one code per user per 30 s, so each test takes its own.
        let totpUsers: [FactorUser]
        /// `PASSKEY_USER name password scope` (carol … carol4), no credential at start.
        let passkeyUsers: [FactorUser]
        /// `RP rpId origin`: WebAuthn's relying party, `localhost` and the server's origin.
        let rpID: String

        func issuer(_ name: String = "rs256") -> String { issuers[name] ?? "missing-issuer-\(name)" }

        /// alice's password in a file of the state dir (0600; start() writes it), for `--form password=@FILE`.
        var passwordFile: String { stateDir + "/authcode-test-password" }

        /// The default way in: the Glewlwyd driver logs in with these (no --step, no g_continue).
        var loginFlags: [String] { ["--form", "username=\(username)", "--form", "password=@\(passwordFile)"] }

        /// The JSON login API call, for the tests that show `--step` still works.
        var loginStep: String {
            "POST \(base)/api/auth/ {\"username\":\"\(username)\",\"password\":\"\(password)\"}"
        }
    }

    /// A user of the second-factor scopes (Fixtures/glewlwyd/factors.py).
    struct FactorUser: Sendable {
        let username: String
        let password: String
        /// The base32 TOTP seed; nil for a passkey user.
        let seed: String?
        /// The scope that asks for the factor (`totp`, `passkey`).
        let scope: String
    }

    private var started: Result<Info, HarnessError>?
    private var process: ServerProcess?

    func info() throws(HarnessError) -> Info {
        if started == nil { started = start() }
        return try started!.get()
    }

    private func start() -> Result<Info, HarnessError> {
        guard Self.glewlwydInstalled() else { return .failure(HarnessError(Self.installHint)) }
        // The venv's python (the same as the fixture's); start.py also runs on a bare python3.
        let python = DjangoServer.python()
        let script = Paths.packageRoot.appendingPathComponent("Fixtures/glewlwyd/start.py").path
        let clock = ContinuousClock.now
        do throws(HarnessError) {
            // Ready in ~0.3 s when idle (RSA key generation dominates); a loaded
            // 2-core machine can take several times that.
            let server = try ServerProcess.start(
                name: "Glewlwyd (Fixtures/glewlwyd/start.py)", executable: python ?? "/usr/bin/env",
                arguments: (python == nil ? ["python3"] : []) + [script, "--watch-stdin"], timeout: 30)
            process = server
            print("glewlwyd ready in \(ContinuousClock.now - clock)")
            let info = try Self.parse(server.startupLines, base: server.baseURL)
            guard FileManager.default.createFile(atPath: info.passwordFile, contents: Data(info.password.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                return .failure(HarnessError("cannot write \(info.passwordFile)"))
            }
            return .success(info)
        } catch {
            return .failure(HarnessError("\(error.description)\n(\(Self.installHint) if it is missing)"))
        }
    }

    private static func glewlwydInstalled() -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]).contains {
            FileManager.default.isExecutableFile(atPath: $0 + "/glewlwyd")
        }
    }

    /// The lines of start.py's docstring: `ISSUER name url`, `USER u p`, `CLIENT kind id [secret]`,
    /// `KEY name alg kid pem jwk`, `REDIRECT uri`, `RESOURCE uri scope`, `RAR type`, `STATE dir`,
    /// `TOTP_USER u p seed scope` and `PASSKEY_USER u p scope` (once per user), `RP rpId origin`.
    static func parse(_ lines: [String], base: String) throws(HarnessError) -> Info {
        var issuers: [String: String] = [:], clients: [String: [String]] = [:], keys: [String: ClientKey] = [:]
        var single: [String: [String]] = [:]
        var totpUsers: [FactorUser] = [], passkeyUsers: [FactorUser] = []
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            guard let tag = words.first else { continue }
            switch tag {
            case "TOTP_USER" where words.count == 5:
                totpUsers.append(FactorUser(username: words[1], password: words[2], seed: words[3], scope: words[4]))
            case "PASSKEY_USER" where words.count == 4:
                passkeyUsers.append(FactorUser(username: words[1], password: words[2], seed: nil, scope: words[3]))
            case "ISSUER" where words.count == 3: issuers[words[1]] = words[2]
            case "CLIENT" where words.count >= 3: clients[words[1]] = Array(words.dropFirst(2))
            case "KEY" where words.count == 6:
                keys[words[1]] = ClientKey(alg: words[2], kid: words[3], pemPath: words[4], jwkPath: words[5])
            default: single[tag] = Array(words.dropFirst())
            }
        }
        func need(_ value: String?, _ what: String) throws(HarnessError) -> String {
            guard let value, !value.isEmpty else {
                throw HarnessError("Fixtures/glewlwyd/start.py printed no \(what); its lines:\n" + lines.joined(separator: "\n"))
            }
            return value
        }
        guard Set(issuers.keys) == ["rs256", "es256", "eddsa"], Set(keys.keys) == ["rsa", "ec", "ed25519"] else {
            throw HarnessError("Fixtures/glewlwyd/start.py printed issuers \(issuers.keys.sorted()) and keys "
                + "\(keys.keys.sorted()); expected rs256/es256/eddsa and rsa/ec/ed25519")
        }
        guard totpUsers.count >= 3, passkeyUsers.count >= 4 else {
            throw HarnessError("Fixtures/glewlwyd/start.py printed \(totpUsers.count) TOTP_USER and \(passkeyUsers.count) PASSKEY_USER lines; "
                + "the factor tests need 3 and 4")
        }
        return Info(
            base: base, issuers: issuers,
            username: try need(single["USER"]?.first, "USER"), password: try need(single["USER"]?.last, "USER password"),
            publicClient: try need(clients["public"]?.first, "public client"),
            confidentialClient: try need(clients["confidential"]?.first, "confidential client"),
            confidentialSecret: try need(clients["confidential"]?.dropFirst().first, "confidential client secret"),
            privateKeyJWTClient: try need(clients["private_key_jwt"]?.first, "private_key_jwt client"),
            clientKeys: keys,
            redirectURI: try need(single["REDIRECT"]?.first, "REDIRECT"),
            resource: try need(single["RESOURCE"]?.first, "RESOURCE"),
            resourceScope: try need(single["RESOURCE"]?.last, "RESOURCE scope"),
            rarType: try need(single["RAR"]?.first, "RAR"),
            stateDir: try need(single["STATE"]?.first, "STATE"),
            totpUsers: totpUsers, passkeyUsers: passkeyUsers, rpID: try need(single["RP"]?.first, "RP"))
    }
}
