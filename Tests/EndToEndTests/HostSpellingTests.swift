import Foundation
import Testing

/// Loopback by spelling (HTTP/Loopback.swift): every one of these reaches
/// the fixture on 127.0.0.1 through libcurl and the resolver, yet is a name
/// by the rule, so plain http to it is exit 5 and nothing is sent
/// (RunTests/PlainHTTPRunTests, in-process).
@Suite("Host spellings that are not loopback")
struct HostSpellingTests {
    static let spellings = ["127.000.000.001", "127.0.0.01", "0177.0.0.1", "0x7f.0.0.1", "127.1", "2130706433", "0x7f000001", "app.localhost"]

    static func flow(_ fx: Fixture, host: String) -> [String] {
        let port = URL(string: fx.base)!.port!
        let issuer = "http://\(host):\(port)/t/\(fx.run)/direct"
        return ["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token", "--client-id", "public-app",
                "--redirect-uri", Fixture.redirect]
    }

    /// The control: the same spellings do reach the fixture when plain http
    /// is allowed, so "nothing sent" in PlainHTTPRunTests is the rule's doing.
    @Test(arguments: spellings)
    func theSpellingReachesTheFixtureWithAllowHTTP(host: String) async throws {
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(Self.flow(fx, host: host) + ["--allow-http"]))
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "token"])
    }

    /// DNS names are case-insensitive: LOCALHOST is localhost.
    @Test func upperCaseLocalhostIsLoopback() async throws {
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(Self.flow(fx, host: "LOCALHOST")))
    }
}
