import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Plain http only to this machine (README.md "Security rules";
/// HTTP/Loopback.swift, HTTP/SecurityPolicy.swift): to any other host it is
/// exit 5 before anything is sent, however the host is spelled and wherever
/// --connect-to points. Moved from EndToEndTests' HostSpellingTests,
/// SecurityCheckTests and TrustedOriginTests; that the spellings do reach
/// the fixture through the resolver with --allow-http stays end-to-end.
struct PlainHTTPRunTests {
    static let hint = "Use https, or pass --allow-http if this network is trusted.\n"

    /// Loopback by meaning, names by the rule: plain http to them is refused.
    static let spellings = ["127.000.000.001", "127.0.0.01", "0177.0.0.1", "0x7f.0.0.1", "127.1", "2130706433", "0x7f000001", "app.localhost"]

    @Test(arguments: spellings)
    func plainHTTPToTheSpellingIsRefused(host: String) {
        let server = ScriptedServer(origin: "http://\(host):8080")
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: refusing plain http to '\(host)': secrets would travel unencrypted (http://\(host):8080/authorize)\n" + Self.hint)
        #expect(ran.requests.isEmpty, "nothing may be sent")
    }

    /// The same definition for a --connect-to target: a loopback URL sent
    /// to a target spelled as a name is refused before anything is sent.
    @Test(arguments: ["127.000.000.001", "0x7f.0.0.1", "app.localhost"])
    func connectToTargetSpelledAsANameIsRefused(target: String) {
        let server = ScriptedServer(origin: "http://127.0.0.1:8080")
        let ran = authcode(server.publicClient() + ["--connect-to", "127.0.0.1:8080:\(target):8080"], server: server)
        expectFailure(ran, .securityCheck, "authcode: error: refusing plain http to '127.0.0.1': --connect-to sends it to '\(target)', which is not this machine"
                      + " (http://127.0.0.1:8080/authorize)\n" + Self.hint)
        #expect(ran.requests.isEmpty)
    }

    /// --connect-to never makes plain http "loopback": nothing is sent.
    @Test func connectToARemoteHostKeepsPlainHTTPRefused() {
        let server = ScriptedServer(origin: "http://127.0.0.1:8080")
        let ran = authcode(server.publicClient() + ["--connect-to", "127.0.0.1:8080:example.invalid:80"], server: server)
        expectFailure(ran, .securityCheck, "authcode: error: refusing plain http to '127.0.0.1': --connect-to sends it to 'example.invalid', which is not this machine"
                      + " (http://127.0.0.1:8080/authorize)\n" + Self.hint)
        #expect(ran.requests.isEmpty)
    }

    /// Exit 5, not 3: refused before any name lookup (.invalid never resolves).
    @Test func plainHTTPToANonLoopbackHostIsRefusedBeforeAnyNetwork() {
        let server = ScriptedServer(origin: "http://example.invalid")
        let ran = authcode(server.confidential(), env: ScriptedServer.demoSecretEnv, server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: refusing plain http to 'example.invalid': secrets would travel unencrypted (http://example.invalid/authorize)\n" + Self.hint)
        #expect(ran.requests.isEmpty)
        #expect(!ran.err.contains("demo-secret"))
    }

    /// The authorization request may go to loopback, but the code must not then
    /// travel over plain http to a token endpoint that is not loopback.
    @Test func plainHTTPTokenEndpointNeverGetsTheCode() {
        let server = ScriptedServer(origin: "http://127.0.0.1:8080")
        let ran = authcode(["--authorize-url", server.authorizeURL, "--token-url", "http://idp.example.invalid/token",
                            "--connect-to", "idp.example.invalid:80:127.0.0.1:8080", "--client-id", "demo-app", "--redirect-uri", ScriptedServer.redirect],
                           env: ScriptedServer.demoSecretEnv, server: server)
        expectFailure(ran, .securityCheck,
                      "authcode: error: refusing plain http to 'idp.example.invalid': secrets would travel unencrypted (http://idp.example.invalid/token)\n" + Self.hint)
        #expect(ran.sent == ["POST /authorize"], "the code never reaches a plain-http non-loopback host")
        expectNoSecrets(ran, server: server)
    }
}
