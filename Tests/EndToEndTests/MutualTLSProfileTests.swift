import Foundation
import Testing

/// tls_client_auth (RFC 8705 §2) and `mtls_endpoint_aliases` (§5) against
/// the fixture over https, asking for a client certificate signed by a
/// test CA (Fixtures/tls/make-certs.sh, made at test time): the client is
/// authenticated by its certificate, the token bound to it.
actor MutualTLSFixture {
    static let shared = MutualTLSFixture()

    struct Started: Sendable {
        let pki: String
        let base: String
    }

    private var started: Result<Started, HarnessError>?
    private var process: ServerProcess?

    func server() throws(HarnessError) -> Started {
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
        guard let python = DjangoServer.python() else { throw HarnessError(DjangoServer.missingVenv) }
        let pki = NSTemporaryDirectory() + "authcode-mtls-\(UUID().uuidString.prefix(8))"
        do {
            try runTool("bash", [Paths.packageRoot.appendingPathComponent("Fixtures/tls/make-certs.sh").path, pki])
        } catch {
            throw HarnessError("make-certs.sh failed (is openssl installed?): \(error)")
        }
        let script = Paths.packageRoot.appendingPathComponent("Fixtures/server/fixture_server.py").path
        let server = try ServerProcess.start(name: "https fixture asking for client certificates", executable: python,
                                             arguments: [script, "--port", "0", "--watch-stdin", "--tls-cert", "\(pki)/server.pem",
                                                         "--tls-key", "\(pki)/server.key", "--tls-client-ca", "\(pki)/ca.pem",
                                                         "--tls-client-optional"], timeout: 15)
        process = server
        return Started(pki: pki, base: server.baseURL)
    }
}

@Suite("Modern profile: mutual TLS client authentication")
struct MutualTLSProfileTests {
    func flow(_ started: MutualTLSFixture.Started, run: String, scenario: String = "signed") -> [String] {
        ["--issuer", "\(started.base)/t/\(run)/\(scenario)", "--client-id", "demo-app", "--redirect-uri", Fixture.redirect,
         "--scope", "openid", "--cacert", "\(started.pki)/ca.pem"]
    }

    func configure(_ started: MutualTLSFixture.Started, run: String, _ config: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: config)
        try runTool("curl", ["-s", "--fail", "--cacert", "\(started.pki)/ca.pem", "-H", "Content-Type: application/json",
                             "--data-binary", String(decoding: data, as: UTF8.self), "\(started.base)/_config/\(run)"])
    }

    func hits(_ started: MutualTLSFixture.Started, run: String) throws -> [ProfileHit] {
        let data = try runTool("curl", ["-s", "--fail", "--cacert", "\(started.pki)/ca.pem", "\(started.base)/_hits/\(run)"])
        return (try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [[String: Any]] ?? []).map(ProfileHit.init)
    }

    /// tls_client_auth with the metadata's aliases: the token request goes
    /// to the alias with client_id only; without the certificate, exit 2.
    @Test func tlsClientAuthUsesTheAliases() async throws {
        let started = try await MutualTLSFixture.shared.server()
        let id = "mtls-\(UUID().uuidString.prefix(8))"
        try configure(started, run: id, ["tls_client_auth": ["demo-app": "CN=alice"], "mtls_endpoint_aliases": true])
        let certificate = ["--cert", "\(started.pki)/client.pem", "--key", "\(started.pki)/client.key"]
        let result = try await run(flow(started, run: id) + certificate + ["--auth-method", "tls_client_auth", "--par"])
        expectTokenJSON(result)
        let recorded = try hits(started, run: id).filter { $0.hit.endpoint != "openid-configuration" }
        #expect(recorded.map(\.hit.path) == ["/t/\(id)/signed/mtls/par", "/t/\(id)/signed/authorize", "/t/\(id)/signed/mtls/token",
                                             "/t/\(id)/signed/jwks"],
                "\(recorded.map(\.hit))")
        let token = recorded[2]
        #expect(token.clientAuthMethod == "tls_client_auth")
        #expect(Set(token.hit.form.keys) == ["grant_type", "code", "redirect_uri", "code_verifier", "client_id"])
        #expect((token.decoded["tls_client_certificate"] as? [String: Any])?["subject"] as? String == "CN=alice")
        let without = try await run(flow(started, run: id) + ["--auth-method", "tls_client_auth"])
        expectFailure(without, exit: 2, ["'--auth-method tls_client_auth' needs '--cert <file>'"])
    }

    /// --fapi2 with a certificate: tls_client_auth by default, tokens bound
    /// to the certificate instead of DPoP.
    @Test func fapi2WithACertificate() async throws {
        let started = try await MutualTLSFixture.shared.server()
        let id = "fapi2-mtls-\(UUID().uuidString.prefix(8))"
        try configure(started, run: id, ["tls_client_auth": ["demo-app": "CN=alice"], "mtls_endpoint_aliases": true])
        let result = try await run(flow(started, run: id, scenario: "fapi2")
                                        + ["--cert", "\(started.pki)/client.pem", "--key", "\(started.pki)/client.key", "--fapi2"])
        let object = expectTokenJSON(result)
        #expect(object["token_type"] as? String == "Bearer", "bound to the certificate, not DPoP")
        let recorded = try hits(started, run: id)
        #expect(recorded.filter { $0.hit.endpoint == "par" || $0.hit.endpoint == "token" }.allSatisfy {
            $0.clientAuthMethod == "tls_client_auth" && $0.hit.path.contains("/mtls/") && $0.hit.headers["dpop"] == nil
        }, "\(recorded.map(\.hit))")
    }
}
