import Testing
@testable import Core
@testable import HTTP
@testable import Walk

struct RedirectTargetTests {
    /// (registered redirect_uri, candidate Location, must it be recognised).
    static let cases: [(String, String, Bool)] = [
        // Same URL, with the answer in the query or the fragment.
        ("http://127.0.0.1:8765/cb", "http://127.0.0.1:8765/cb?code=1&state=2", true),
        ("http://127.0.0.1:8765/cb", "http://127.0.0.1:8765/cb#code=1&state=2", true),
        ("http://127.0.0.1:8765/cb", "http://127.0.0.1:8765/cb", true),
        // The query is ignored, on either side.
        ("https://app.example/cb?tenant=a", "https://app.example/cb?code=1", true),
        ("https://app.example/cb?tenant=a", "https://app.example/cb", true),
        // Scheme and host compare case-insensitively.
        ("https://app.example/cb", "HTTPS://APP.Example/cb?code=1", true),
        ("HTTP://LocalHost:8765/cb", "http://localhost:8765/cb?code=1", true),
        // Default ports equal explicit ones.
        ("https://app.example/cb", "https://app.example:443/cb?code=1", true),
        ("https://app.example:443/cb", "https://app.example/cb?code=1", true),
        ("http://app.example/cb", "http://app.example:80/cb?code=1", true),
        ("http://app.example:80/cb", "http://app.example/cb", true),
        ("https://app.example/cb", "https://app.example:80/cb?code=1", false),
        ("http://app.example/cb", "http://app.example:443/cb?code=1", false),
        // Loopback with a different port is another listener (RFC 8252 §7.3 is
        // about registration, not about where this client must stop).
        ("http://127.0.0.1:8765/cb", "http://127.0.0.1:8766/cb?code=1", false),
        ("http://127.0.0.1:8765/cb", "http://127.0.0.1/cb?code=1", false),
        ("http://localhost:8765/cb", "http://127.0.0.1:8765/cb?code=1", false),
        // Path: exact, case-sensitive, trailing slash matters; empty == "/".
        ("https://app.example/cb", "https://app.example/cb/?code=1", false),
        ("https://app.example/cb/", "https://app.example/cb?code=1", false),
        ("https://app.example/cb", "https://app.example/CB?code=1", false),
        ("https://app.example/cb", "https://app.example/cb2?code=1", false),
        ("https://app.example/cb", "https://app.example/?code=1", false),
        ("https://app.example", "https://app.example/?code=1", true),
        ("https://app.example/", "https://app.example?code=1", true),
        ("https://app.example", "https://app.example?code=1", true),
        // Scheme and host must match.
        ("https://app.example/cb", "http://app.example/cb?code=1", false),
        ("http://app.example/cb", "https://app.example/cb?code=1", false),
        ("https://app.example/cb", "https://evil.example/cb?code=1", false),
        ("https://app.example/cb", "https://app.example.evil.example/cb?code=1", false),
        ("https://app.example/cb", "https://user@app.example/cb?code=1", true),
        // Custom schemes (RFC 8252 §7.1).
        ("com.example.app:/cb", "com.example.app:/cb?code=1&state=2", true),
        ("com.example.app:/cb", "COM.EXAMPLE.APP:/cb?code=1", true),
        ("com.example.app:/cb", "com.example.app:/other?code=1", false),
        ("com.example.app:/cb", "com.example.other:/cb?code=1", false),
        ("com.example.app:/cb", "https://app.example/cb?code=1", false),
        ("com.example.app:/cb", "com.example.app://cb?code=1", false),
        // IPv6 loopback.
        ("http://[::1]:8765/cb", "http://[::1]:8765/cb?code=1", true),
        ("http://[::1]:8765/cb", "http://[::1]:8766/cb?code=1", false),
        // RFC 3986 §6.2.2: percent-encoded unreserved characters are the characters.
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/%63allback?code=1", true),
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/%63%61%6C%6c%62%61%63%6B", true),
        ("http://127.0.0.1:8765/cb~x", "http://127.0.0.1:8765/cb%7Ex", true),
        ("http://127.0.0.1:8765/cb%7ex", "http://127.0.0.1:8765/cb~x", true),
        ("http://%31%32%37.0.0.1:8765/cb", "http://127.0.0.1:8765/cb", true),
        ("https://app.example/cb", "https://%41pp.example/cb?code=1", true),
        // Reserved characters stay encoded, whatever the hex case.
        ("https://app.example/a%2Fb", "https://app.example/a%2fb?code=1", true),
        ("https://app.example/a%2Fb", "https://app.example/a/b?code=1", false),
        // Dot segments, also when encoded.
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/x/../callback", true),
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/./callback?code=1", true),
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/x/%2E%2E/callback", true),
        ("http://127.0.0.1:8765/callback", "http://127.0.0.1:8765/x/%2e./callback", true),
        ("http://127.0.0.1:8765/a/../callback", "http://127.0.0.1:8765/callback", true),
        // A trailing dot on the host is the same host.
        ("http://localhost:8765/cb", "http://localhost.:8765/cb?code=1", true),
        ("https://app.example/cb", "https://app.example./cb", true),
        // Default port written out, upper-case scheme, encoded path, all at once.
        ("http://127.0.0.1/cb", "HTTP://127.0.0.1:80/%63b/./?code=1", false),
        ("http://127.0.0.1/cb/", "HTTP://127.0.0.1:80/%63b/./?code=1", true),
    ]

    @Test(arguments: cases)
    func matching(redirectURI: String, candidate: String, matches: Bool) throws {
        let target = RedirectTarget(try #require(URIReference(redirectURI)))
        #expect(target.matches(try #require(URIReference(candidate))) == matches)
    }

    /// A relative Location is resolved first, then compared.
    @Test(arguments: [
        ("https://as.example/authorize", "/cb?code=1", "https://as.example/cb", true),
        ("https://as.example/authorize", "cb?code=1", "https://as.example/cb", true),
        ("https://as.example/a/authorize", "cb?code=1", "https://as.example/cb", false),
        ("https://as.example/authorize", "//app.example/cb?code=1", "https://app.example/cb", true),
    ])
    func relativeLocation(requestURL: String, location: String, redirectURI: String, matches: Bool) throws {
        let resolved = try #require(URIReference(location)).resolved(against: try #require(URIReference(requestURL)))
        #expect(RedirectTarget(try #require(URIReference(redirectURI))).matches(resolved) == matches)
    }

    /// Fuzzing found `http:/.//127.0.0.1:8765/callback`: resolved, its path
    /// is `//127.0.0.1:8765/callback` with no authority (HTTPTests/URIReferenceTests),
    /// which is not the redirect_uri, written back and read again or not.
    @Test(arguments: [
        "http:/.//127.0.0.1:8765/callback?code=x",
        "http:/a/..//127.0.0.1:8765/callback",
        "https:.//evil.example/x",
    ])
    func authorityLessDoubleSlashPathIsNotTheRedirectURI(text: String) throws {
        let resolved = try #require(URIReference(text)).resolved(against: try #require(URIReference("http://as.example/authorize")))
        let target = RedirectTarget(try #require(URIReference("http://127.0.0.1:8765/callback")))
        #expect(!target.matches(resolved))
        #expect(!target.matches(try #require(URIReference(resolved.text))))
    }

    /// A combining mark after `?` hides no delimiter: the query is split on
    /// bytes, so the path is still the redirect_uri's.
    @Test func combiningMarkAfterTheQueryDelimiterStillMatches() throws {
        let hidden = try #require(URIReference("http://127.0.0.1:8765/callback?\u{301}code=x&state=s1"))
        #expect(RedirectTarget(try #require(URIReference("http://127.0.0.1:8765/callback"))).matches(hidden))
    }
}
