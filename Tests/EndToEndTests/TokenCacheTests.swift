import Foundation
import Testing

/// `--cache` across processes and over a real connection (README.md "Token
/// cache"): runs started together mint once, and a token endpoint that
/// refuses connections leaves the entry alone. The cache's decisions run
/// in-process (RunTests/TokenCacheRunTests).
@Suite("Token cache")
struct TokenCacheTests {
    @Test func otherRefusalsKeepTheEntry() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entry = try #require(cache.files(".token").first)
        let before = try Data(contentsOf: URL(fileURLWithPath: entry))
        // The token endpoint is down: exit 3, and the entry stays for later.
        let result = try await run(["--authorize-url", fx.issuer("direct") + "/authorize", "--token-url", "http://127.0.0.1:9/token",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect, "--min-ttl", "7200"] + cache.flags)
        expectFailure(result, exit: 3, ["127.0.0.1:9"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == before)
    }

    /// 16 runs started together with an empty cache: one flow at the
    /// server. Started by one shell at once (the test runner's own gate
    /// would let only a few run at a time).
    @Test func runsStartedTogetherMintOnce() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let binary = try Paths.binary.get()
        let arguments = (fx.publicClient("direct") + cache.flags).map { "'\($0)'" }.joined(separator: " ")
        let script = "mkdir -p '\(cache.root)' && for i in $(seq 16); do '\(binary)' \(arguments) > '\(cache.root)'/out.$i & done; wait"
        let result = try await run(["-c", script], timeout: 60, executable: "/bin/bash")
        #expect(result.exitCode == 0, "\(result)")
        let outputs = try (1...16).map { try String(contentsOfFile: "\(cache.root)/out.\($0)", encoding: .utf8) }
        #expect(Set(outputs).count == 1)
        #expect(jsonObject(outputs[0])?["access_token"] is String)
        #expect(try fx.stats()["codes_redeemed"] == 1)
        #expect(try fx.hits(to: "authorize").count == 1)
    }
}

