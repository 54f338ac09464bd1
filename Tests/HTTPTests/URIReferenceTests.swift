import Testing
@testable import Core
@testable import HTTP

struct URIReferenceTests {
    static let base = URIReference("http://a/b/c/d;p?q")!

    /// RFC 3986 §5.4.1, every normal example.
    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// RFC 3986 §5.4.2, every abnormal example (strict parser for "http:g").
    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ]

    @Test(arguments: normal)
    func normalExamples(reference: String, expected: String) throws {
        #expect(try #require(URIReference(reference)).resolved(against: Self.base).text == expected)
    }

    @Test(arguments: abnormal)
    func abnormalExamples(reference: String, expected: String) throws {
        #expect(try #require(URIReference(reference)).resolved(against: Self.base).text == expected)
    }

    /// Resolutions authcode meets in practice: a Location relative to the authorize URL.
    @Test(arguments: [
        ("https://as.example/oauth/authorize?x=1", "login?step=2", "https://as.example/oauth/login?step=2"),
        ("https://as.example/oauth/authorize", "/cb?code=1#f", "https://as.example/cb?code=1#f"),
        ("https://as.example", "login", "https://as.example/login"),
        ("https://as.example/a/b", "//other.example:8443/x", "https://other.example:8443/x"),
        ("https://as.example/a/b", "HTTP://Other.example/./y/../z", "HTTP://Other.example/z"),
        ("http://127.0.0.1:8080/authorize", "?code=1", "http://127.0.0.1:8080/authorize?code=1"),
    ])
    func practicalResolution(base: String, reference: String, expected: String) throws {
        let resolved = try #require(URIReference(reference)).resolved(against: try #require(URIReference(base)))
        #expect(resolved.text == expected)
    }

    struct Parsed: Sendable, CustomTestStringConvertible {
        let text: String
        let scheme: String?
        let authority: String?
        let path: String
        let query: String?
        let fragment: String?
        let host: String?
        let port: Int?
        var testDescription: String { text }
    }

    static let parses: [Parsed] = [
        Parsed(text: "http://[::1]:8080/x", scheme: "http", authority: "[::1]:8080", path: "/x", query: nil, fragment: nil, host: "::1", port: 8080),
        Parsed(text: "http://[::1]/", scheme: "http", authority: "[::1]", path: "/", query: nil, fragment: nil, host: "::1", port: 80),
        Parsed(text: "https://user:pw@Host.Example:8443/p?q=1#frag", scheme: "https", authority: "user:pw@Host.Example:8443", path: "/p",
               query: "q=1", fragment: "frag", host: "host.example", port: 8443),
        Parsed(text: "https://u@h", scheme: "https", authority: "u@h", path: "", query: nil, fragment: nil, host: "h", port: 443),
        Parsed(text: "http://a", scheme: "http", authority: "a", path: "", query: nil, fragment: nil, host: "a", port: 80),
        Parsed(text: "HTTP://EXAMPLE.com", scheme: "HTTP", authority: "EXAMPLE.com", path: "", query: nil, fragment: nil, host: "example.com", port: 80),
        Parsed(text: "http://a:/x", scheme: "http", authority: "a:", path: "/x", query: nil, fragment: nil, host: "a", port: 80),
        Parsed(text: "com.example.app:/cb", scheme: "com.example.app", authority: nil, path: "/cb", query: nil, fragment: nil, host: nil, port: nil),
        Parsed(text: "urn:ietf:wg:oauth:2.0:oob", scheme: "urn", authority: nil, path: "ietf:wg:oauth:2.0:oob", query: nil, fragment: nil, host: nil, port: nil),
        Parsed(text: "ftp://files.example/x", scheme: "ftp", authority: "files.example", path: "/x", query: nil, fragment: nil, host: "files.example", port: nil),
        Parsed(text: "//h.example/p", scheme: nil, authority: "h.example", path: "/p", query: nil, fragment: nil, host: "h.example", port: nil),
        Parsed(text: "/p?", scheme: nil, authority: nil, path: "/p", query: "", fragment: nil, host: nil, port: nil),
        Parsed(text: "a/b:c", scheme: nil, authority: nil, path: "a/b:c", query: nil, fragment: nil, host: nil, port: nil),
        Parsed(text: "1a:b", scheme: nil, authority: nil, path: "1a:b", query: nil, fragment: nil, host: nil, port: nil),
        Parsed(text: "?x=1#", scheme: nil, authority: nil, path: "", query: "x=1", fragment: "", host: nil, port: nil),
        Parsed(text: "", scheme: nil, authority: nil, path: "", query: nil, fragment: nil, host: nil, port: nil),
    ]

    @Test(arguments: parses)
    func parse(expected: Parsed) throws {
        let reference = try #require(URIReference(expected.text))
        #expect(reference.scheme == expected.scheme)
        #expect(reference.authority == expected.authority)
        #expect(reference.path == expected.path)
        #expect(reference.query == expected.query)
        #expect(reference.fragment == expected.fragment)
        #expect(reference.host == expected.host)
        #expect(reference.effectivePort == expected.port)
        #expect(reference.text == expected.text, "the text round-trips")
        #expect(reference.isAbsolute == (expected.scheme != nil))
    }

    @Test(arguments: [
        "http://[::1/x", "http://[::1]x/", "http://a b/", "http://a/b c", "http://a/\u{1}", "http://a/x\u{7F}", "http://a/\n",
        "http://a:80x/", "http://a:port/", "http://a]/", "http://[/", " http://a/", "http://a/\t",
    ])
    func rejected(text: String) {
        #expect(URIReference(text) == nil)
    }

    @Test(arguments: [
        ("https://a/b?code=1#frag", "https://a/b"), ("http://127.0.0.1:8765/cb?code=x&state=y", "http://127.0.0.1:8765/cb"),
        ("com.example.app:/cb#access_token=t", "com.example.app:/cb"), ("https://u:pw@a/", "https://a/"), ("https://a", "https://a"),
    ])
    func withoutQuery(text: String, expected: String) throws {
        #expect(try #require(URIReference(text)).withoutQuery == expected)
    }

    @Test(arguments: [("http://x:8080/", 8080), ("https://x:443", 443), ("http://x:0/", 0), ("http://x/", nil), ("http://[::1]:9/", 9)] as [(String, Int?)])
    func explicitPort(text: String, port: Int?) throws {
        #expect(try #require(URIReference(text)).explicitPort == port)
    }

    /// Fuzzing found `http:/.//127.0.0.1:8765/callback`: resolved, its path is
    /// `//127.0.0.1:8765/callback` with no authority, and written bare that
    /// reads back as another place. The `/.` prefix keeps text and value one.
    @Test(arguments: [
        "http:/.//127.0.0.1:8765/callback?code=x",
        "http:/a/..//127.0.0.1:8765/callback",
        "https:.//evil.example/x",
    ])
    func authorityLessDoubleSlashPathsRoundTrip(text: String) throws {
        let base = try #require(URIReference("http://as.example/authorize"))
        let resolved = try #require(URIReference(text)).resolved(against: base)
        let reparsed = try #require(URIReference(resolved.text))
        #expect(reparsed.authority == resolved.authority)
        #expect(reparsed.path == resolved.path || reparsed.path == "/." + resolved.path)
        // That such a path is not the redirect_uri: WalkTests/RedirectTargetTests.
    }

    /// Fuzzing found that splitting on Characters hid a delimiter followed by
    /// a combining mark (one grapheme): authcode judged one URL, curl fetched
    /// another. Splitting is on bytes now, as curl and servers do.
    @Test func combiningMarkAfterADelimiterDoesNotHideIt() throws {
        let hidden = try #require(URIReference("http://127.0.0.1:8765/callback?\u{301}code=x&state=s1"))
        #expect(hidden.path == "/callback")
        #expect(hidden.query == "\u{301}code=x&state=s1")

        let base = try #require(URIReference("http://127.0.0.1:8000"))
        let resolved = try #require(URIReference("\u{656}/../@127.0.0.1:8765/callback?code=x")).resolved(against: base)
        #expect(resolved.authority == "127.0.0.1:8000")
        #expect(resolved.path == "/@127.0.0.1:8765/callback")
        #expect(URIReference(resolved.text)?.host == "127.0.0.1")
        #expect(URIReference(resolved.text)?.explicitPort == 8000)
    }
}
