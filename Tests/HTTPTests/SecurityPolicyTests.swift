import Testing
@testable import Core
@testable import HTTP

struct SecurityPolicyTests {
    @Test(arguments: [
        "https://as.example/authorize", "HTTPS://AS.EXAMPLE/", "http://127.0.0.1:8080/token", "http://127.255.255.254/",
        "http://localhost/", "http://LOCALHOST:9000/x", "http://[::1]:8080/x", "http://[0:0:0:0:0:0:0:1]/",
        "http://127.0.0.1/cb?code=abc",
    ])
    func allowed(url: String) throws {
        try SecurityPolicy(allowHTTP: false).check(url)
    }

    static func plain(_ host: String, _ url: String) -> HTTPError {
        .plainHTTP(.remoteHost(.direct), host: host, url: url)
    }

    /// Each refusal as a value (the words and hints are the CLI's:
    /// Tests/CLITests/ErrorReportTests.swift).
    static let refused: [(String, HTTPError)] = [
        ("http://as.example/token?code=abc", plain("as.example", "http://as.example/token")),
        ("HTTP://AS.Example:8080/t#x", plain("as.example", "HTTP://AS.Example:8080/t")),
        ("http://127.0.0.1.nip.io/", plain("127.0.0.1.nip.io", "http://127.0.0.1.nip.io/")),
        ("http://localhost.evil.example/", plain("localhost.evil.example", "http://localhost.evil.example/")),
        ("http://10.0.0.1/", plain("10.0.0.1", "http://10.0.0.1/")),
        ("ftp://as.example/x?y=1", .unsupportedScheme("ftp", url: "ftp://as.example/x")),
        ("com.example.app:/cb?code=1", .unsupportedScheme("com.example.app", url: "com.example.app:/cb")),
        ("javascript:alert(1)", .unsupportedScheme("javascript", url: "javascript:alert(1)")),
        ("/relative", .notAURL("/relative")),
        ("not a url", .notAURL("not a url")),
        ("bad\u{1B}[0m url", .notAURL("bad\u{1B}[0m url")),
    ]

    @Test(arguments: refused)
    func refusedURLs(url: String, expected: HTTPError) {
        #expect(throws: expected) { try SecurityPolicy(allowHTTP: false).check(url) }
    }

    @Test(arguments: ["http://as.example/token", "http://10.0.0.1:8080/"])
    func allowHTTPPermitsPlainHTTP(url: String) throws {
        try SecurityPolicy(allowHTTP: true).check(url)
    }

    @Test func allowHTTPDoesNotAllowOtherSchemes() {
        #expect(throws: HTTPError.unsupportedScheme("file", url: "file:///etc/passwd")) {
            try SecurityPolicy(allowHTTP: true).check("file:///etc/passwd")
        }
    }

    /// Every spelling that is not loopback by the one definition
    /// (Loopback.swift) is refused like any other host, whatever it looks like.
    @Test(arguments: LoopbackTests.names)
    func nonLoopbackSpellingIsRefused(host: String) throws {
        let url = "http://\(host.contains(":") ? "[\(host)]" : host):8080/token?code=abc"
        // Not a URL at all, or no host: refused by the rules before this one.
        guard let reference = URIReference(url), let parsed = reference.host, !parsed.isEmpty else { return }
        #expect(throws: Self.plain(parsed, reference.withoutQuery)) {
            try SecurityPolicy(allowHTTP: false).check(url)
        }
    }

    @Test(arguments: [("http:/.//127.0.0.1:8765/callback", "http"), ("https:///x", "https"), ("http:relative", "http")])
    func httpWithoutAHostIsNeverFetched(url: String, scheme: String) {
        #expect(throws: HTTPError.noHost(scheme: scheme, url: URIReference(url)!.withoutQuery)) { try SecurityPolicy(allowHTTP: true).check(url) }
    }
}

/// `--connect-to` never turns a name into "loopback": for plain http the
/// host really connected to must be this machine too.
struct ConnectToPolicyTests {
    @Test(arguments: [
        // The entry that applies sends the connection off the machine.
        ("http://127.0.0.1:8080/token", ["127.0.0.1:8080:evil.example:80"], "evil.example"),
        ("http://localhost/token", [":80:10.0.0.5:"], "10.0.0.5"),
        ("http://127.0.0.1:9/x", ["::[2001:db8::1]:9"], "2001:db8::1"),
        // The first matching entry wins, as in libcurl.
        ("http://127.0.0.1:8080/t", ["127.0.0.1:8080:evil.example:80", "127.0.0.1:8080:127.0.0.2:80"], "evil.example"),
    ])
    func refused(url: String, connectTo: [String], target: String) {
        let place = URIReference(url)!.withoutQuery
        let host = URIReference(url)!.host!
        #expect(throws: HTTPError.plainHTTP(.connectTo(target: target), host: host, url: place)) {
            try SecurityPolicy(allowHTTP: false, connectTo: connectTo.map { try ConnectTo($0) }).check(url)
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/t", ["127.0.0.1:8080:127.0.0.2:9000"]),   // loopback to loopback
        ("http://127.0.0.1:8080/t", ["127.0.0.1:9090:evil.example:80"]),   // another port: does not apply
        ("http://127.0.0.1:8080/t", ["other.example::evil.example:"]),     // another host
        ("https://idp.example/t", ["idp.example:443:10.0.0.5:8443"]),      // https may go anywhere
        ("http://127.0.0.1:8080/t", ["127.0.0.1:8080::9999"]),             // only the port changes
    ])
    func allowed(url: String, connectTo: [String]) throws {
        try SecurityPolicy(allowHTTP: false, connectTo: connectTo.map { try ConnectTo($0) }).check(url)
    }

    /// The name is judged, never what --connect-to points it at.
    @Test func aNameIsNotLoopbackBecauseItConnectsThere() {
        #expect(throws: HTTPError.plainHTTP(.remoteHost(.direct), host: "idp.example", url: "http://idp.example/t")) {
            try SecurityPolicy(allowHTTP: false, connectTo: [ConnectTo("idp.example:80:127.0.0.1:8080")]).check("http://idp.example/t")
        }
    }

    @Test func allowHTTPAllowsAnyTarget() throws {
        try SecurityPolicy(allowHTTP: true, connectTo: [ConnectTo("127.0.0.1:8080:evil.example:80")]).check("http://127.0.0.1:8080/t")
    }
}

/// One parser for a `--connect-to` entry, as libcurl reads it: the command
/// line refuses what it refuses (exit 2), so the policy never meets an
/// entry it cannot read.
struct ConnectToTests {
    @Test(arguments: [
        ("idp.example:443:127.0.0.1:8443", "idp.example", 443, "127.0.0.1", 8443),
        ("IDP.Example::[::1]:", "idp.example", nil, "::1", nil),
        ("[2001:DB8::1]:80::9000", "2001:db8::1", 80, "", 9000),
        (":::", "", nil, "", nil),
        ("a:1:b:65535", "a", 1, "b", 65535),
        ("a:080:b:00443", "a", 80, "b", 443),
    ] as [(String, String, Int?, String, Int?)])
    func parses(text: String, host: String, port: Int?, targetHost: String, targetPort: Int?) throws {
        let entry = try ConnectTo(text)
        #expect(entry.text == text)
        #expect(entry.host == host && entry.port == port && entry.targetHost == targetHost && entry.targetPort == targetPort)
    }

    @Test(arguments: [
        ("127.0.0.1:80:evil.example:99999", ConnectTo.Problem.port("99999")),
        ("127.0.0.1:80:evil.example:70000", .port("70000")),
        ("127.0.0.1:0:evil.example:80", .port("0")),
        ("127.0.0.1:8080\u{301}:evil.example:80", .port("8080\u{301}")),
        ("h:-1:x:80", .port("-1")),
        ("h:+80:x:80", .port("+80")),
        ("h:80:x:123456", .port("123456")),
        ("[::1:80:x:80", .port("80:x:80")),  // no closing bracket: split at each colon
        ("[::1]80:x:80", .shape),
        ("a:b:c", .shape),
        ("", .shape),
    ])
    func refuses(text: String, problem: ConnectTo.Problem) {
        #expect(throws: problem) { try ConnectTo(text) }
    }

    @Test func problemsReadAsTheyShould() {
        #expect("\(ConnectTo.Problem.shape)" == "expected HOST:PORT:HOST2:PORT2")
        #expect("\(ConnectTo.Problem.port("70000"))" == "port '70000' is not a number from 1 to 65535 (or empty: any)")
    }
}
