// libFuzzer harness: hostile Set-Cookie headers (RFC 6265 §5.2-5.4 with the
// 6265bis rules the jar follows). Each input line is one Set-Cookie value
// received from http://127.0.0.1/a/b; the jar then builds Cookie headers for
// several requests, as HTTPClient does on every hop.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

private let cookieNow = 1.7e9

/// Requests the jar is asked about: (scheme, host, path, may get cookies).
/// Everything was set by 127.0.0.1, so other hosts — a name that merely
/// ends in it, a neighbour address — must never get any.
private let cookieRequests: [(scheme: String, host: String, path: String, sameHost: Bool)] = [
    ("http", "127.0.0.1", "/a/b", true),
    ("http", "127.0.0.1", "/", true),
    ("https", "127.0.0.1", "/a/b/c?x=1#y", true),
    ("HTTP", "127.0.0.1", "", true),
    ("http", "127.0.0.10", "/a/b", false),
    ("http", "1.127.0.0.1", "/a/b", false),
    ("https", "example.com", "/a/b", false),
    ("http", "localhost", "/", false),
]

private func cookieCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    let jar = CookieJar()
    jar.store(lines, scheme: "http", host: "127.0.0.1", path: "/a/b", now: cookieNow)
    cookieCheck(jar.count <= CookieJar.maxCookies, "the jar holds \(jar.count) cookies")
    // The same lines over https, later: Secure cookies and __Secure-/__Host- prefixes.
    jar.store(lines, scheme: "https", host: "127.0.0.1", path: "/a/b/", now: cookieNow + 1)
    cookieCheck(jar.count <= CookieJar.maxCookies, "the jar holds \(jar.count) cookies")
    _ = jar.names

    for request in cookieRequests {
        let header = jar.header(scheme: request.scheme, host: request.host, path: request.path, now: cookieNow + 2)
        if !request.sameHost {
            cookieCheck(header == nil, "a cookie set by 127.0.0.1 is sent to \(request.host): \(header ?? "")")
        }
        if let header {
            cookieCheck(!header.isEmpty, "an empty Cookie header")
            // A header value with CR, LF or NUL would split or cut the request.
            cookieCheck(!header.utf8.contains { $0 < 0x20 && $0 != 0x09 }, "a control character in the Cookie header")
        }
    }
    // Far in the future every cookie with an expiry is gone; session cookies stay.
    _ = jar.header(scheme: "https", host: "127.0.0.1", path: "/a/b", now: 1e300)

    // Each line on its own, through the parser and the date algorithm.
    for line in lines.prefix(16) {
        if let cookie = Cookie(setCookie: line, scheme: "https", host: "Sub.Example.COM", path: "/x/y", now: cookieNow) {
            cookieCheck(!cookie.name.isEmpty, "a cookie without a name")
            cookieCheck(cookie.path.hasPrefix("/"), "cookie path '\(cookie.path)' does not start with /")
            cookieCheck(cookie.domain == cookie.domain.lowercased(), "cookie domain not lower-cased")
            cookieCheck(Cookie.domainMatches("sub.example.com", cookie.domain), "the cookie's domain '\(cookie.domain)' does not cover the host that set it")
        }
        _ = CookieDate.parse(line)
    }
    return 0
}
