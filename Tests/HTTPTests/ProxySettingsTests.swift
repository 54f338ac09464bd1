import Testing
@testable import Core
@testable import HTTP

/// Which proxy a request takes (HTTP/ProxySettings.swift): curl's variables
/// in curl's order, `no_proxy` as curl reads it, and never an environment
/// proxy for a loopback host.
struct ProxySettingsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let environment: [String: String]
        let url: String
        let proxy: String?
        var source: String = ""
        var testDescription: String { "\(url) with \(environment.sorted { $0.key < $1.key })" }
    }

    static let cases: [Case] = [
        // scheme-specific, then all_proxy
        Case(environment: ["http_proxy": "http://p1:3128"], url: "http://idp.example/a", proxy: "http://p1:3128", source: "http_proxy"),
        Case(environment: ["http_proxy": "http://p1:3128"], url: "https://idp.example/a", proxy: nil),
        Case(environment: ["https_proxy": "p2:8080"], url: "https://idp.example/a", proxy: "p2:8080", source: "https_proxy"),
        Case(environment: ["HTTPS_PROXY": "p3"], url: "https://idp.example/a", proxy: "p3", source: "HTTPS_PROXY"),
        Case(environment: ["https_proxy": "lower", "HTTPS_PROXY": "upper"], url: "https://idp.example/", proxy: "lower", source: "https_proxy"),
        // HTTP_PROXY is never read (httpoxy): all_proxy instead
        Case(environment: ["HTTP_PROXY": "evil:80"], url: "http://idp.example/", proxy: nil),
        Case(environment: ["HTTP_PROXY": "evil:80", "all_proxy": "socks5h://p4"], url: "http://idp.example/", proxy: "socks5h://p4", source: "all_proxy"),
        Case(environment: ["ALL_PROXY": "p5"], url: "https://idp.example/", proxy: "p5", source: "ALL_PROXY"),
        Case(environment: ["all_proxy": "a", "ALL_PROXY": "b"], url: "https://idp.example/", proxy: "a", source: "all_proxy"),
        Case(environment: ["https_proxy": "s", "all_proxy": "a"], url: "HTTPS://IDP.example/", proxy: "s", source: "https_proxy"),
        // set but empty: the search ends there, with no proxy
        Case(environment: ["https_proxy": "", "all_proxy": "a"], url: "https://idp.example/", proxy: nil),
        Case(environment: ["https_proxy": "", "HTTPS_PROXY": "b"], url: "https://idp.example/", proxy: nil),
        // a loopback host never takes a proxy from the environment
        Case(environment: ["http_proxy": "http://127.0.0.3:1", "https_proxy": "p", "all_proxy": "a"], url: "http://127.0.0.1:8080/t", proxy: nil),
        Case(environment: ["https_proxy": "p"], url: "https://localhost/t", proxy: nil),
        Case(environment: ["all_proxy": "a"], url: "http://[::1]:9/t", proxy: nil),
        Case(environment: ["all_proxy": "a"], url: "http://LOCALHOST:9/t", proxy: nil),
        // ...but a name that only looks like loopback does
        Case(environment: ["http_proxy": "p"], url: "http://127.0.0.1.nip.io/t", proxy: "p", source: "http_proxy"),
        Case(environment: ["http_proxy": "p"], url: "http://127.000.000.001:8/t", proxy: "p", source: "http_proxy"),
        // no_proxy, then NO_PROXY
        Case(environment: ["https_proxy": "p", "no_proxy": "idp.example"], url: "https://idp.example/", proxy: nil),
        Case(environment: ["https_proxy": "p", "NO_PROXY": ".example"], url: "https://a.idp.example/", proxy: nil),
        Case(environment: ["https_proxy": "p", "no_proxy": "other", "NO_PROXY": "idp.example"], url: "https://idp.example/", proxy: "p", source: "https_proxy"),
        Case(environment: ["https_proxy": "p", "no_proxy": "*"], url: "https://idp.example/", proxy: nil),
        Case(environment: ["https_proxy": "p", "no_proxy": "example.com"], url: "https://notexample.com/", proxy: "p", source: "https_proxy"),
        Case(environment: ["https_proxy": "p", "no_proxy": "10.0.0.0/8"], url: "https://10.1.2.3/", proxy: nil),
        Case(environment: ["https_proxy": "p", "no_proxy": "idp.example:443"], url: "https://idp.example/", proxy: "p", source: "https_proxy"),
        // no host, no proxy
        Case(environment: ["all_proxy": "a"], url: "not a url", proxy: nil),
    ]

    @Test(arguments: cases)
    func environmentChoice(_ c: Case) {
        let choice = ProxySettings(environment: c.environment).choice(for: c.url)
        #expect(choice.url == c.proxy)
        #expect(choice.source == (c.proxy == nil ? .none : .variable(c.source)))
        #expect(choice.curlValue == (c.proxy ?? ""), "libcurl always gets an explicit answer")
    }

    /// The explicit proxy wins over the environment, goes to loopback hosts
    /// too (the user named it), and obeys the explicit no-proxy list first.
    @Test func explicitProxyWins() {
        let environment = ["http_proxy": "env:1", "no_proxy": "idp.example"]
        let settings = ProxySettings(explicitProxy: "http://mine:3128", environment: environment)
        #expect(settings.choice(for: "http://other.example/").url == "http://mine:3128")
        #expect(settings.choice(for: "http://other.example/").source == .option)
        #expect(settings.choice(for: "http://127.0.0.1:80/").url == "http://mine:3128")
        #expect(settings.choice(for: "http://idp.example/").isDirect, "no_proxy from the environment still applies")
        let overridden = ProxySettings(explicitProxy: "http://mine:3128", explicitNoProxy: "", environment: environment)
        #expect(overridden.choice(for: "http://idp.example/").url == "http://mine:3128", "--noproxy '' overrides no_proxy")
        #expect(ProxySettings(explicitProxy: "", environment: environment).choice(for: "http://x.example/").isDirect, "--proxy '' is no proxy")
    }

    @Test(arguments: [
        ("http://user:p%40ss@proxy.example:3128", "proxy.example", "http://[redacted]@proxy.example:3128"),
        ("user:pw@127.0.0.3:8888", "127.0.0.3", "http://[redacted]@127.0.0.3:8888"),
        ("socks5h://[::1]:1080", "::1", "socks5h://[::1]:1080"),
        ("http://proxy.invalid", "proxy.invalid", "http://proxy.invalid"),
        ("http://bad proxy", nil, "a proxy that cannot be read"),
    ] as [(String, String?, String)])
    func proxyHostAndShownForm(url: String, host: String?, shown: String) {
        let choice = ProxySettings(explicitProxy: url).choice(for: "https://idp.example/")
        #expect(choice.host == host)
        #expect(choice.shown == shown)
    }

    /// Proxy credentials are secrets: as written, decoded, and as Basic.
    @Test func credentialsAreRemembered() {
        let redactor = Redactor()
        redactor.remember(proxies: ProxySettings(environment: ["https_proxy": "http://puser:s%3Ac%20ret@p:1", "all_proxy": "x:other secret@q"]))
        let basic = Base64URL.encodeStandard(Array("puser:s:c ret".utf8))
        let text = "s%3Ac%20ret | s:c ret | puser:s%3Ac%20ret | \(basic) | other secret"
        #expect(redactor.scrub(text) == "[redacted] | [redacted] | [redacted] | [redacted] | [redacted]")
    }
}

/// `no_proxy` entries as libcurl matches them (lib/noproxy.c).
struct NoProxyListTests {
    @Test(arguments: [
        ("idp.example", "idp.example", true), ("IDP.Example", "idp.example", true), ("idp.example", "www.idp.example", true),
        (".idp.example", "www.idp.example", true), (".idp.example", "idp.example", true), ("idp.example.", "idp.example", true),
        ("idp.example", "idp.example.", true), ("example", "notexample", false), ("idp.example", "idp.example.org", false),
        ("a, b ,idp.example", "idp.example", true), ("a,,,idp.example", "idp.example", true), ("a b,idp.example", "idp.example", false),
        ("*", "anything.example", true), ("*,x", "anything.example", false), ("", "idp.example", false),
        ("10.0.0.0/8", "10.9.8.7", true), ("10.0.0.0/8", "11.0.0.1", false), ("10.1.2.3", "10.1.2.3", true), ("10.1.2.3/32", "10.1.2.4", false),
        ("192.168.0.0/16", "192.168.77.1", true), ("10.0.0.0/33", "10.0.0.0", false), ("10.0.0.0/0", "10.0.0.1", false),
        ("2001:db8::/32", "2001:db8:1::5", true), ("2001:db8::/32", "2001:db9::5", false), ("::1", "0:0::1", true),
        ("idp.example:8080", "idp.example", false), ("127.0.0.1", "127.0.0.1", true), ("localhost", "127.0.0.1", false),
    ] as [(String, String, Bool)])
    func matches(list: String, host: String, expected: Bool) {
        #expect(NoProxyList(list).matches(host) == expected)
    }
}
