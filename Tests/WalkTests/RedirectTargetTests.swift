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
}
