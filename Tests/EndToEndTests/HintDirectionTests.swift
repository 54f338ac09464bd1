import Foundation
import Testing

/// Issue 22 item 4, over a real connection: https to a plain-http port asks
/// whether the port is plain http, and never names `--cert`. The other
/// hints (invalid_client, a shared cache directory, discovery) run
/// in-process (RunTests/ClientAuthRunTests, CacheFileRunTests, DiscoveryRunTests).
@Suite("Hints that point the right way")
struct HintDirectionTests {
    @Test func httpsToAPlainHTTPPortAsksWhetherItIsPlainHTTP() async throws {
        let fx = try await Fixture.make()
        let plain = fx.issuer("direct")
        let https = "https://" + plain.dropFirst("http://".count)
        let result = try await run(["--authorize-url", https + "/authorize", "--token-url", https + "/token",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 3, [])
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.hasPrefix("authcode: error: TLS failed: ") == true && lines.first?.hasSuffix(" (\(https)/authorize)") == true, "\(result)")
        let authority = URL(string: plain)!.host! + ":" + String(URL(string: plain)!.port!)
        #expect(lines.last == "The server answered in plain http, not TLS: is this port plain http? Try http://\(authority)/t/\(fx.run)/direct/authorize.", "\(result)")
        #expect(!result.stderr.contains("--cert") && !result.stderr.contains("--key"), "\(result)")
    }
}
