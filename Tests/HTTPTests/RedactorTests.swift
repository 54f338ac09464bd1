import Testing
@testable import Core
@testable import HTTP

struct RedactorTests {
    @Test(arguments: [
        ("code", true), ("Code", true), ("pin", true), ("otp", true), ("totp", true), ("pass", true), ("pwd", true),
        ("session", true), ("sid", true), ("assertion", true), ("client_assertion", true), ("password", true),
        ("user_password", true), ("Passwd", true), ("client_secret", true), ("access_token", true), ("refresh_token", true),
        ("id_token", true), ("code_verifier", true), ("credential", true), ("Cookie", true), ("Set-Cookie", true),
        ("Authorization", true), ("X-Api-Key", true), ("apikey", true), ("api_key", true), ("X-CSRF-Token", true),
        ("wresult", true), ("SAMLResponse", true), ("wctx", false), ("wa", false),
        ("state", false), ("username", false), ("client_id", false), ("redirect_uri", false), ("scope", false),
        ("nonce", false), ("iss", false), ("error", false), ("code_challenge", false), ("response_type", false),
        ("grant_type", false), ("Content-Type", false), ("Location", false), ("encode", false), ("", false),
    ])
    func secretNames(name: String, secret: Bool) {
        #expect(Redactor.isSecretName(name) == secret)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8765/cb?code=abc123&state=xyz", "http://127.0.0.1:8765/cb?code=[redacted]&state=xyz"),
        ("http://127.0.0.1:8765/cb?state=xyz&iss=https%3A%2F%2Fidp#code=c", "http://127.0.0.1:8765/cb?state=xyz&iss=https%3A%2F%2Fidp#code=[redacted]"),
        ("https://app/cb#access_token=t0k&expires_in=3600&state=s", "https://app/cb#access_token=[redacted]&expires_in=3600&state=s"),
        ("https://app/cb#id_token=a.b.c&refresh_token=r&state=s", "https://app/cb#id_token=[redacted]&refresh_token=[redacted]&state=s"),
        ("https://as/token?client_secret=s&client_id=app", "https://as/token?client_secret=[redacted]&client_id=app"),
        ("https://as/x?co%64e=abc&flag&=v&&state=", "https://as/x?co%64e=[redacted]&flag&=v&&state="),
        ("https://as/x?CODE=abc", "https://as/x?CODE=[redacted]"),
        ("https://as/login", "https://as/login"),
        ("com.example.app:/cb?code=abc&state=s", "com.example.app:/cb?code=[redacted]&state=s"),
        ("/relative?password=pw&user=u", "/relative?password=[redacted]&user=u"),
    ])
    func url(text: String, expected: String) {
        #expect(Redactor().url(text) == expected)
    }

    /// A password in the URL's userinfo is a secret too (RFC 3986 §3.2.1
    /// deprecates it for this reason); the trace must not show it.
    @Test(arguments: [
        ("https://user:pa55w0rd@as.example/x?state=s", "https://user:[redacted]@as.example/x?state=s"),
        ("http://alice:pw-123456@127.0.0.1:8080/login", "http://alice:[redacted]@127.0.0.1:8080/login"),
        ("https://user@as.example/x", "https://user@as.example/x"),
    ])
    func userinfoPassword(text: String, expected: String) {
        #expect(Redactor().url(text) == expected)
    }

    @Test func urlThatIsNotAURIIsStillScrubbed() {
        let redactor = Redactor()
        redactor.remember("hunter22")
        #expect(redactor.url("not a url hunter22 ?code=1") == "not a url [redacted] ?code=1")
    }

    @Test(arguments: [
        (HTTPHeader("Authorization", "Basic YXBwOnNlY3JldA=="), "Authorization: Basic [redacted]"),
        (HTTPHeader("authorization", "Bearer eyJhbGciOi.x.y"), "authorization: Bearer [redacted]"),
        (HTTPHeader("Authorization", "opaque-token"), "Authorization: [redacted]"),
        (HTTPHeader("Authorization", ""), "Authorization: [redacted]"),
        (HTTPHeader("Proxy-Authorization", "Basic abc"), "Proxy-Authorization: Basic [redacted]"),
        (HTTPHeader("Cookie", "sid=1; lang=en"), "Cookie: sid=[redacted]; lang=[redacted]"),
        (HTTPHeader("Cookie", "JSESSIONID=abc"), "Cookie: JSESSIONID=[redacted]"),
        (HTTPHeader("Set-Cookie", "SESSION=abc; Path=/; HttpOnly"), "Set-Cookie: SESSION=[redacted]"),
        (HTTPHeader("set-cookie", " KC_RESTART=eyJ; Secure"), "set-cookie: KC_RESTART=[redacted]"),
        (HTTPHeader("Location", "http://127.0.0.1:8765/cb?code=abc&state=s"), "Location: http://127.0.0.1:8765/cb?code=[redacted]&state=s"),
        (HTTPHeader("Location", "/login?session_code=x&tab_id=y"), "Location: /login?session_code=x&tab_id=y"),
        (HTTPHeader("Refresh", "https://app/cb#access_token=t"), "Refresh: https://app/cb#access_token=[redacted]"),
        (HTTPHeader("X-Api-Key", "k-123"), "X-Api-Key: [redacted]"),
        (HTTPHeader("Content-Type", "text/html; charset=utf-8"), "Content-Type: text/html; charset=utf-8"),
        (HTTPHeader("X-Request-Id", "42"), "X-Request-Id: 42"),
    ])
    func header(header: HTTPHeader, expected: String) {
        #expect(Redactor().header(header) == expected)
    }

    @Test func fieldsMaskSecretNamesAndScrubValues() {
        let redactor = Redactor()
        redactor.remember("alice-secret")
        #expect(redactor.fields([("username", "alice"), ("password", "pw"), ("note", "is alice-secret"), ("code", "c")]) ==
            "username=alice&password=[redacted]&note=is [redacted]&code=[redacted]")
    }

    /// (remembered, text, scrubbed). Secrets are found as given and form-encoded.
    @Test(arguments: [
        (["s3cr3t p@ss"], "x s3cr3t p@ss y", "x [redacted] y"),
        (["s3cr3t p@ss"], "body=s3cr3t+p%40ss&x=1", "body=[redacted]&x=1"),
        (["ab%cd"], "ab%cd and ab%25cd", "[redacted] and [redacted]"),
        (["100%%"], "100%% 100%25%25 100%", "[redacted] [redacted] 100%"),
        // Every byte any match covers is masked: overlapping matches leave no fragment.
        (["%%%%"], "%%%%%%", "[redacted]"),
        (["abcd", "abcdefgh"], "abcdefgh abcd", "[redacted] [redacted]"),
        (["abcdefgh", "abcd"], "abcdefgh abcd", "[redacted] [redacted]"),
        (["abc"], "abc", "abc"),
        (["é€"], "é€", "é€"),
        (["abcd"], "xabcdx ABCD", "x[redacted]x ABCD"),
        (["[redacted]"], "[redacted]", "[redacted]"),
        ([], "nothing to hide", "nothing to hide"),
    ])
    func scrub(secrets: [String], text: String, expected: String) {
        let redactor = Redactor()
        for secret in secrets { redactor.remember(secret) }
        redactor.remember(nil)
        #expect(redactor.scrub(text) == expected)
    }

    @Test func rememberingTwiceIsHarmless() {
        let redactor = Redactor()
        for _ in 0..<3 { redactor.remember("p%20w%") }
        #expect(redactor.scrub("p%20w% p%2520w%25") == "[redacted] [redacted]")
    }

    /// `=` followed by a combining mark is one Character: cut on bytes, or the
    /// cookie value would be taken for part of its name and shown.
    @Test func cookieValueAfterACombiningMarkIsMasked() {
        let redactor = Redactor()
        #expect(redactor.header(HTTPHeader("Set-Cookie", "sid=\u{301}SECRETVALUE; Path=/")) == "Set-Cookie: sid=[redacted]")
        #expect(redactor.header(HTTPHeader("Cookie", "a=\u{301}SECRET1; b=2")) == "Cookie: a=[redacted]; b=[redacted]")
        #expect(redactor.url("http://x/cb?state=s&\u{301}=1&code=SECRETCODE") == "http://x/cb?state=s&\u{301}=1&code=[redacted]")
    }
}

/// Cookies a server sets are secrets, named or nameless (HTTP/Redactor+HTTP.swift).
struct CookieRedactionTests {
    @Test func setCookieValuesAreRemembered() {
        let redactor = Redactor()
        redactor.remember(setCookies: ["session=sessionsecretvalue42; Path=/; HttpOnly", "abcdefsecretvalue", "x=1"])
        #expect(redactor.scrub("Cookie: session=sessionsecretvalue42; abcdefsecretvalue") == "Cookie: session=[redacted]; [redacted]")
        #expect(redactor.scrub("sessionsecretvalue42".base64ForTest) == "[redacted]")
    }

    /// A nameless cookie is all value: the trace must not show it as a name.
    @Test(arguments: [
        (HTTPHeader("Set-Cookie", "abcdefsecretvalue"), "Set-Cookie: =[redacted]"),
        (HTTPHeader("Set-Cookie", "abcdefsecretvalue; Path=/"), "Set-Cookie: =[redacted]"),
        (HTTPHeader("Cookie", "abcdefsecretvalue; session=x"), "Cookie: =[redacted]; session=[redacted]"),
    ])
    func namelessCookieInTheTrace(header: HTTPHeader, line: String) {
        #expect(Redactor().header(header) == line)
    }
}

private extension String {
    /// Base64 of the UTF-8 bytes: one of the forms a server echoes a value in.
    var base64ForTest: String { Base64URL.encodeStandard(Array(utf8)) }
}
