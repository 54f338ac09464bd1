import Foundation
import Testing

/// TLS trust and client certificates (README.md "Options": --cacert, -k, --cert,
/// --key, --connect-to): the fixture server over https with a PKI made at test
/// time by Fixtures/tls/make-certs.sh (never committed).
actor TLSServers {
    static let shared = TLSServers()

    struct Started: Sendable {
        let pki: String
        /// Trusted by the test CA, for 127.0.0.1, localhost and idp.test.
        let good: String
        /// Same certificate, but the server demands a client certificate.
        let mutual: String
        let wrongName: String
        let expired: String
    }

    private var started: Result<Started, HarnessError>?
    private var processes: [ServerProcess] = []

    func servers() throws(HarnessError) -> Started {
        if started == nil {
            do throws(HarnessError) {
                started = .success(try start())
            } catch {
                started = .failure(error)
            }
        }
        return try started!.get()
    }

    private func start() throws(HarnessError) -> Started {
        let pki = FileManager.default.temporaryDirectory.appendingPathComponent("authcode-pki-\(UUID().uuidString.prefix(8))").path
        let script = Paths.packageRoot.appendingPathComponent("Fixtures/tls/make-certs.sh").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["bash", script, pki]
        do { try make.run() } catch { throw HarnessError("cannot run make-certs.sh: \(error)") }
        make.waitUntilExit()
        guard make.terminationStatus == 0 else { throw HarnessError("make-certs.sh failed (is openssl installed?)") }

        func server(_ cert: String, clientCA: Bool = false) throws(HarnessError) -> String {
            let serverScript = Paths.packageRoot.appendingPathComponent("Fixtures/server/fixture_server.py").path
            var arguments = ["python3", serverScript, "--port", "0", "--watch-stdin",
                             "--tls-cert", "\(pki)/\(cert).pem", "--tls-key", "\(pki)/\(cert).key"]
            if clientCA { arguments += ["--tls-client-ca", "\(pki)/ca.pem"] }
            let process = try ServerProcess.start(name: "https fixture (\(cert))", executable: "/usr/bin/env", arguments: arguments, timeout: 10)
            processes.append(process)
            return process.baseURL
        }
        return Started(pki: pki, good: try server("server"), mutual: try server("server", clientCA: true),
                       wrongName: try server("wrongname"), expired: try server("expired"))
    }
}

@Suite("TLS: trust, names, expiry, client certificates")
struct TLSTests {
    static func flow(_ base: String, _ scenario: String = "direct") -> [String] {
        let issuer = "\(base)/t/tls-\(UUID().uuidString.prefix(8))/\(scenario)"
        return ["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", "demo-app", "--redirect-uri", Fixture.redirect]
    }

    @Test func trustedThroughCacert() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.good) + ["--cacert", "\(tls.pki)/ca.pem"], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test func untrustedWithoutCacert() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.good), env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 3, ["TLS failed", "unable to get local issuer certificate", "/authorize"])
        expectNoSecrets(in: result)
    }

    @Test func insecureWarnsAndProceeds() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.good) + ["-k"], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        #expect(result.stderr == "authcode: warning: --insecure: TLS certificates are not verified\n", "\(result)")
    }

    @Test func nameMismatch() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.wrongName) + ["--cacert", "\(tls.pki)/ca.pem"], env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 3, ["TLS failed", "no alternative certificate subject name matches"])
    }

    @Test func expiredCertificate() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.expired) + ["--cacert", "\(tls.pki)/ca.pem"], env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 3, ["TLS failed", "certificate has expired"])
    }

    @Test func clientCertificateRequiredButMissing() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.mutual) + ["--cacert", "\(tls.pki)/ca.pem"], env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 3, ["/authorize", "--cert and --key"])
    }

    @Test func mutualTLS() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.mutual) + ["--cacert", "\(tls.pki)/ca.pem",
                                                            "--cert", "\(tls.pki)/client.pem", "--key", "\(tls.pki)/client.key"],
                                   env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
    }

    /// An issuer name that resolves only elsewhere (a container network):
    /// URL, Host and TLS name stay `idp.test`, the connection goes to 127.0.0.1.
    @Test func connectToKeepsTheTLSName() async throws {
        let tls = try await TLSServers.shared.servers()
        let port = try #require(URL(string: tls.good)?.port)
        let issuer = "https://idp.test:8443/t/tls-ct-\(UUID().uuidString.prefix(8))/direct"
        let result = try await run(["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                                    "--client-id", "demo-app", "--redirect-uri", Fixture.redirect,
                                    "--cacert", "\(tls.pki)/ca.pem", "--connect-to", "idp.test:8443:127.0.0.1:\(port)"],
                                   env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
    }

    @Test(arguments: ["--cacert", "--cert"])
    func missingFileIsAUsageError(_ flag: String) async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(Self.flow(tls.good) + [flag, "/nonexistent/file.pem"], env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 2, ["cannot read '/nonexistent/file.pem' for '\(flag)': no such file"])
    }
}
