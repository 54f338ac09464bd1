import Foundation
import Testing

let installedKubectl: String? = ["/usr/bin/kubectl", "/usr/local/bin/kubectl", "/snap/bin/kubectl"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// authcode as a kubectl exec credential plugin, tried with the real
/// kubectl: a kubeconfig whose user runs `authcode --print exec-credential`,
/// and an https fixture server standing in for the API server, which
/// records the bearer kubectl sends. Skipped where kubectl is absent.
@Suite("kubectl exec credential plugin", .enabled(if: installedKubectl != nil, "kubectl is not installed"))
struct KubectlPluginTests {
    static var kubectl: String? { installedKubectl }

    static func kubeconfig(server: String, ca: String, apiVersion: String, arguments: [String]) throws -> String {
        let binary = try Paths.binary.get()
        let args = arguments.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fixture
          cluster:
            server: \(server)
            certificate-authority: \(ca)
        users:
        - name: alice
          user:
            exec:
              apiVersion: \(apiVersion)
              command: \(binary)
              args: [\(args)]
              interactiveMode: Never
        contexts:
        - name: fixture
          context: {cluster: fixture, user: alice}
        current-context: fixture

        """
    }

    /// The Authorization headers the https fixture saw for a run.
    static func bearers(server: String, ca: String, run: String) throws -> [String] {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "--silent", "--fail", "--max-time", "10", "--cacert", ca, "\(server)/_hits/\(run)"]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let hits = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return hits.compactMap { ($0["headers"] as? [String: String])?["authorization"] }
    }

    @Test(arguments: ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"])
    func kubectlSendsTheIDTokenAndReusesTheCache(apiVersion: String) async throws {
        let fx = try await Fixture.make()
        let tls = try await TLSServers.shared.servers()
        let cache = try CacheDir()
        let ca = tls.pki + "/ca.pem"
        let flow = fx.publicClient("direct") + ["--scope", "openid", "--print", "exec-credential"] + cache.flags
        let config = try TempFile(try Self.kubeconfig(server: tls.good, ca: ca, apiVersion: apiVersion, arguments: flow))
        let kubectl = try #require(Self.kubectl)
        for round in 1...2 {
            let result = try await run(["--kubeconfig", config.path, "get", "--raw", "/t/\(fx.run)/direct/cb"], timeout: 60, executable: kubectl)
            #expect(result.exitCode == 0, "round \(round)\n\(result)")
            #expect(result.stdout.contains("callback reached"), "\(result)")
        }
        let entry = try #require(cache.files(".token").first)
        let body = try String(contentsOfFile: entry, encoding: .utf8).split(separator: "\n", maxSplits: 1)[1]
        let idToken = try #require(jsonObject(String(body))?["id_token"] as? String)
        #expect(try Self.bearers(server: tls.good, ca: ca, run: fx.run) == ["Bearer \(idToken)", "Bearer \(idToken)"])
        #expect(try fx.stats()["codes_redeemed"] == 1, "the second kubectl call was served from the cache")
    }
}
