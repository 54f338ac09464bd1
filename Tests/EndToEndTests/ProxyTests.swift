import Foundation
import Testing

/// Proxies (HTTP/ProxySettings.swift): authcode reads curl's variables
/// itself and always tells libcurl which proxy to use; a loopback host
/// never goes through an environment proxy; the proxy is a hop of the
/// plain-http rule; proxy credentials are secrets. Through a real proxy
/// process (tinyproxy, Support/ProxyServer.swift) on 127.0.0.3.
@Suite("Proxies from the environment")
struct ProxyTests {
    static let variables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "HTTP_PROXY"]

    /// A non-loopback spelling of the fixture's address (HostSpellingTests):
    /// it takes the environment's proxy, and needs --allow-http.
    static func viaName(_ fx: Fixture) -> [String] {
        let port = URL(string: fx.base)!.port!
        let issuer = "http://127.000.000.001:\(port)/t/\(fx.run)/direct"
        return ["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token", "--client-id", "public-app",
                "--redirect-uri", Fixture.redirect, "--allow-http"]
    }

    /// Every proxy variable points at a live proxy, yet a flow to
    /// 127.0.0.1 or localhost goes direct: the proxy sees nothing.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func loopbackNeverTakesAnEnvironmentProxy(host: String) async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        let env = Dictionary(uniqueKeysWithValues: Self.variables.map { ($0, proxy.url) })
        let args = fx.publicClient("direct").map { $0.replacingOccurrences(of: "//127.0.0.1:", with: "//\(host):") }
        expectTokenJSON(try await run(args, env: env))
        #expect(proxy.requests().isEmpty, "the proxy saw \(proxy.requests())")
        let hits = try fx.hits()
        #expect(hits.map(\.endpoint) == ["authorize", "token"])
        #expect(hits.allSatisfy { $0.headers["via"] == nil }, "\(hits.map(\.headers))")
    }

    /// The control for the next test: a name takes the environment proxy
    /// (tinyproxy adds its Via header, and logs both requests).
    @Test func aNameGoesThroughTheEnvironmentProxy() async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(Self.viaName(fx), env: ["http_proxy": proxy.url]))
        #expect(proxy.requests().count == 2, "\(proxy.requests())")
        #expect(proxy.requests().allSatisfy { $0.contains("/t/\(fx.run)/direct/") })
        #expect(try fx.hits().allSatisfy { $0.headers["via"]?.contains("tinyproxy") == true })
    }

    /// no_proxy as curl reads it (a list with blanks, a trailing dot) sends
    /// the same requests direct; NO_PROXY when no_proxy is unset.
    @Test(arguments: [
        ["no_proxy": "idp.example, 127.000.000.001"], ["NO_PROXY": "127.000.000.001."], ["no_proxy": "*"],
    ])
    func noProxyIsHonoured(noProxy: [String: String]) async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(Self.viaName(fx), env: ["http_proxy": proxy.url].merging(noProxy) { $1 }))
        #expect(proxy.requests().isEmpty, "the proxy saw \(proxy.requests())")
        #expect(try fx.hits().allSatisfy { $0.headers["via"] == nil })
    }

    /// Plain http through a proxy that is not this machine: exit 5 before
    /// any connection (the proxy's name does not even resolve), naming it.
    @Test(arguments: ["http_proxy", "all_proxy", "ALL_PROXY"])
    func plainHTTPThroughANonLoopbackProxyIsRefused(variable: String) async throws {
        let fx = try await Fixture.make()
        let port = URL(string: fx.base)!.port!
        let issuer = "http://idp.example.invalid/t/\(fx.run)/direct"
        let result = try await run(["--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token", "--client-id", "public-app",
                                    "--redirect-uri", Fixture.redirect, "--connect-to", "idp.example.invalid:80:127.0.0.1:\(port)"],
                                   env: [variable: "http://proxy.invalid:3128"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: refusing plain http to 'idp.example.invalid' through the proxy 'proxy.invalid' (\(variable)): secrets would travel unencrypted (\(issuer)/authorize)\n"
                + "Use https, or pass --allow-http if this network is trusted.\n", "\(result)")
        #expect(try fx.hits().isEmpty)
    }

    /// HTTP_PROXY is never read (curl's rule: CGI puts a request's Proxy:
    /// header there): the name goes direct with --allow-http.
    @Test func upperCaseHTTPProxyIsIgnored() async throws {
        let proxy = try ProxyServer.start()
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(Self.viaName(fx), env: ["HTTP_PROXY": proxy.url]))
        #expect(proxy.requests().isEmpty)
    }

    /// Proxy credentials never reach stderr: -v shows the proxy masked, and
    /// a refused password (tinyproxy answers 401) or a bad proxy URL that
    /// libcurl quotes whole leaves them out of the error line too.
    @Test func proxyCredentialsAreNeverPrinted() async throws {
        let password = "proxy-pw-31337"
        let proxy = try ProxyServer.start(basicAuth: (user: "puser", password: password))
        let fx = try await Fixture.make()
        let basic = Data("puser:\(password)".utf8).base64EncodedString()

        let good = try await run(Self.viaName(fx) + ["-v"], env: ["http_proxy": proxy.url(user: "puser", password: password)])
        expectTokenJSON(good)
        #expect(good.stderr.contains("* through the proxy http://[redacted]@\(proxy.host):\(proxy.port) (http_proxy)\n"), "\(good)")
        #expect(proxy.requests().count == 2)

        // GET: tinyproxy resets a connection whose body it did not read.
        let refused = try await run(Self.viaName(fx) + ["-v", "--method", "GET"], env: ["http_proxy": proxy.url(user: "puser", password: password + "x")])
        #expect(refused.exitCode == 6, "\(refused)")
        #expect(refused.errorLine?.hasPrefix("authcode: error: unexpected 401 answer") == true, "\(refused)")

        let fx2 = try await Fixture.make()
        let unreadable = try await run(["--authorize-url", "https://idp.example.invalid/authorize", "--token-url", "https://idp.example.invalid/token",
                                        "--client-id", "public-app", "--redirect-uri", Fixture.redirect],
                                       env: ["https_proxy": "gopher://puser:\(password)@\(proxy.host):\(proxy.port)"])
        #expect(unreadable.exitCode == 3, "\(unreadable)")
        #expect(unreadable.stderr.contains("[redacted]"), "libcurl quotes the proxy URL; its credentials are masked\n\(unreadable)")
        for result in [good, refused, unreadable] {
            for secret in [password, password + "x", basic, "puser:\(password)"] {
                #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret), "\(result)")
            }
            expectNoSecrets(in: result, fixture: result.arguments.contains("--allow-http") ? fx : fx2)
        }
    }
}
