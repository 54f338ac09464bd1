import Foundation
import Testing

/// Plain http refused with a real connection at hand (ARCHITECTURE.md
/// "Security rules"): nothing reaches the fixture, and with --allow-http
/// --connect-to keeps the Host. The other exit 4 and 5 checks run
/// in-process (RunTests/SecurityCheckRunTests, PlainHTTPRunTests).
@Suite("Exit 5: plain http over a real connection")
struct SecurityCheckTests {
    /// With --connect-to pointing the host at the fixture, a product that failed to
    /// refuse would show up in the hits: none may arrive.
    @Test func plainHTTPRefusalSendsNothing() async throws {
        let fx = try await Fixture.make()
        let port = URL(string: fx.base)!.port!
        let base = "http://idp.example.invalid/t/\(fx.run)/direct"
        let args = ["--authorize-url", base + "/authorize", "--token-url", base + "/token", "--client-id", "demo-app",
                    "--redirect-uri", Fixture.redirect, "--connect-to", "idp.example.invalid:80:127.0.0.1:\(port)"]
        let refused = try await run(args, env: Fixture.demoSecretEnv)
        expectFailure(refused, exit: 5, ["--allow-http"])
        #expect(try fx.hits().isEmpty, "nothing may be sent over plain http to a non-loopback host")

        let allowed = try await run(args + ["--allow-http"], env: Fixture.demoSecretEnv)
        expectTokenJSON(allowed)
        #expect(try fx.hits().first?.headers["host"] == "idp.example.invalid", "--connect-to keeps the Host")
    }
}
