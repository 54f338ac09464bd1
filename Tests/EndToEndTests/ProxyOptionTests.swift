import Foundation
import Testing

/// `--proxy` and `--noproxy` (README.md "Options"), through a real proxy
/// process (Debian's tinyproxy on 127.0.0.3, Support/ProxyServer.swift):
/// the flag wins over the environment, reaches loopback hosts too (as in
/// curl), carries https as CONNECT, and a plain-http hop to a proxy that is
/// not this machine is refused before any connection.
@Suite("--proxy and --noproxy through a real proxy")
struct ProxyOptionTests {
    /// A named proxy is used even for 127.0.0.1: the user asked for it by
    /// name, unlike a variable meant for the outside world.
    @Test func theFlagCarriesALoopbackFlow() async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(fx.publicClient("direct") + ["--proxy", proxy.url]))
        #expect(proxy.requests().count == 2, "\(proxy.requests())")
        #expect(try fx.hits().allSatisfy { $0.headers["via"]?.contains("tinyproxy") == true })
    }

    /// The flag wins over every proxy variable, one that would be refused
    /// included; `--noproxy` wins over no_proxy (which, as in curl, still
    /// applies to `--proxy` when no `--noproxy` is given).
    @Test func theFlagWinsOverTheEnvironment() async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        let env = ["http_proxy": "http://proxy.invalid:3128", "all_proxy": "http://proxy.invalid:3128", "no_proxy": "*"]
        expectTokenJSON(try await run(ProxyTests.viaName(fx) + ["--proxy", proxy.url, "--noproxy", "idp.example"], env: env))
        #expect(proxy.requests().count == 2, "\(proxy.requests())")
    }

    @Test(arguments: ["*", "127.000.000.001", "idp.example,127.000.000.001"])
    func noproxyGoesDirect(list: String) async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(ProxyTests.viaName(fx) + ["--proxy", proxy.url, "--noproxy", list]))
        #expect(proxy.requests().isEmpty, "the proxy saw \(proxy.requests())")
        #expect(try fx.hits().allSatisfy { $0.headers["via"] == nil })
    }

    /// https through the proxy is a CONNECT tunnel: TLS runs end to end
    /// (the fixture's certificate is checked against --cacert), and the
    /// proxy sees only where the tunnel goes.
    @Test func httpsGoesThroughAsConnect() async throws {
        let proxy = try ProxyServer.start()
        let tls = try await TLSServers.shared.servers()
        let result = try await run(TLSTests.flow(tls.good) + ["--cacert", "\(tls.pki)/ca.pem", "--proxy", proxy.url], env: Fixture.demoSecretEnv)
        expectTokenJSON(result)
        let port = URL(string: tls.good)!.port!
        #expect(!proxy.requests().isEmpty && proxy.requests().allSatisfy { $0.hasPrefix("CONNECT") && $0.contains("127.0.0.1:\(port)") },
                "\(proxy.requests())")
    }

    /// Plain http through a named proxy that is not this machine: exit 5
    /// before any connection, naming the proxy and where it came from.
    @Test func plainHTTPThroughARemoteProxyIsRefused() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["--proxy", "http://proxy.invalid:3128"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: refusing plain http to '127.0.0.1' through the proxy 'proxy.invalid' (--proxy), which is not this machine (\(fx.issuer("direct"))/authorize)\n"
                + "Use https, or pass --allow-http if this network is trusted.\n", "\(result)")
        #expect(try fx.hits().isEmpty)
    }

    /// A proxy's password never shows, and a bad proxy URL is a usage error
    /// that does not echo it.
    @Test func proxyCredentialsStaySecret() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("direct") + ["-v", "--proxy", "http://user:pr0xy-s3cret@proxy.invalid:3128"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(!result.stderr.contains("pr0xy-s3cret"), "\(result)")
        let bad = try await run(fx.publicClient("direct") + ["--proxy", "ftp://user:pr0xy-s3cret@proxy.invalid"])
        #expect(bad.exitCode == 2, "\(bad)")
        #expect(bad.stderr.hasPrefix("authcode: error: invalid value for '--proxy': expected a proxy URL such as http://proxy.example:3128, https://… or socks5h://…\n"),
                "\(bad)")
        #expect(!bad.stderr.contains("pr0xy-s3cret"))
    }
}
