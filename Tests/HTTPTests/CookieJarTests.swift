import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP

struct CookieJarTests {
    /// 2021-06-09T10:18:14Z, the date in RFC 6265's examples.
    static let june2021 = 1_623_233_894.0
    static let now = 1_700_000_000.0

    /// A jar filled by one response from `scheme://host/path`.
    static func jar(_ headers: [String], scheme: String = "https", host: String = "id.example.com", path: String = "/", now: Double = now) -> CookieJar {
        let jar = CookieJar()
        jar.store(headers, scheme: scheme, host: host, path: path, now: now)
        return jar
    }

    // MARK: - Where cookies go

    struct Sending: Sendable, CustomTestStringConvertible {
        let name: String
        let setCookie: [String]
        var from = "https://id.example.com/"
        let to: String
        let expected: String?
        var testDescription: String { "\(name): \(to)" }
    }

    static let sendings: [Sending] = [
        Sending(name: "host-only to the same host", setCookie: ["a=1"], to: "https://id.example.com/", expected: "a=1"),
        Sending(name: "host-only not to a subdomain", setCookie: ["a=1"], to: "https://sub.id.example.com/", expected: nil),
        Sending(name: "host-only not to the parent", setCookie: ["a=1"], to: "https://example.com/", expected: nil),
        Sending(name: "host comparison ignores case", setCookie: ["a=1"], to: "https://ID.Example.COM/", expected: "a=1"),
        Sending(name: "Domain covers subdomains", setCookie: ["a=1; Domain=example.com"], to: "https://deep.sub.example.com/", expected: "a=1"),
        Sending(name: "Domain with a leading dot", setCookie: ["a=1; domain=.Example.com"], to: "https://example.com/", expected: "a=1"),
        Sending(name: "Domain=host still covers subdomains", setCookie: ["a=1; Domain=id.example.com"], to: "https://x.id.example.com/", expected: "a=1"),
        Sending(name: "Domain is no suffix match on a label", setCookie: ["a=1; Domain=example.com"], to: "https://badexample.com/", expected: nil),
        Sending(name: "foreign Domain rejected", setCookie: ["a=1; Domain=other.com"], to: "https://other.com/", expected: nil),
        Sending(name: "Domain of a subdomain rejected", setCookie: ["a=1; Domain=sub.id.example.com"], to: "https://sub.id.example.com/", expected: nil),
        Sending(name: "public-suffix-like Domain rejected", setCookie: ["a=1; Domain=com"], to: "https://id.example.com/", expected: nil),
        Sending(name: "single-label Domain equal to the host", setCookie: ["a=1; Domain=localhost"], from: "http://localhost/",
                to: "http://localhost/", expected: "a=1"),
        Sending(name: "empty Domain is ignored", setCookie: ["a=1; Domain="], to: "https://id.example.com/", expected: "a=1"),
        Sending(name: "Domain=.127.0.0.1 from 127.0.0.1", setCookie: ["a=1; Domain=.127.0.0.1; Path=/"], from: "http://127.0.0.1/login",
                to: "http://127.0.0.1/o/authorize", expected: "a=1"),
        Sending(name: "an IP domain matches only itself", setCookie: ["a=1; Domain=127.0.0.1"], from: "http://127.0.0.1/",
                to: "http://x.127.0.0.1/", expected: nil),
        Sending(name: "a cookie for one IP is not sent to another", setCookie: ["a=1"], from: "http://127.0.0.1/",
                to: "http://127.0.0.2/", expected: nil),
        Sending(name: "Domain=0.0.1 from an IP is rejected", setCookie: ["a=1; Domain=0.0.1"], from: "http://127.0.0.1/",
                to: "http://127.0.0.1/", expected: nil),
        Sending(name: "Path prefix at a slash", setCookie: ["a=1; Path=/realms"], to: "https://id.example.com/realms/demo", expected: "a=1"),
        Sending(name: "Path equal", setCookie: ["a=1; Path=/realms"], to: "https://id.example.com/realms", expected: "a=1"),
        Sending(name: "Path prefix not at a slash", setCookie: ["a=1; Path=/realms"], to: "https://id.example.com/realmsX", expected: nil),
        Sending(name: "Path with a trailing slash", setCookie: ["a=1; Path=/o/"], to: "https://id.example.com/o/token", expected: "a=1"),
        Sending(name: "Path elsewhere", setCookie: ["a=1; Path=/admin"], to: "https://id.example.com/", expected: nil),
        Sending(name: "query ignored for path matching", setCookie: ["a=1; Path=/o"], to: "https://id.example.com/o?x=/y", expected: "a=1"),
        Sending(name: "default-path is the directory", setCookie: ["a=1"], from: "https://id.example.com/accounts/login/",
                to: "https://id.example.com/accounts/login/x", expected: "a=1"),
        Sending(name: "default-path excludes siblings", setCookie: ["a=1"], from: "https://id.example.com/accounts/login",
                to: "https://id.example.com/o/authorize", expected: nil),
        Sending(name: "default-path of a top-level file is /", setCookie: ["a=1"], from: "https://id.example.com/login?next=/a/b",
                to: "https://id.example.com/o/authorize", expected: "a=1"),
        Sending(name: "a relative Path falls back to the default", setCookie: ["a=1; Path=realms"], from: "https://id.example.com/x/y",
                to: "https://id.example.com/x/z", expected: "a=1"),
        Sending(name: "Secure sent over https", setCookie: ["a=1; Secure"], to: "https://id.example.com/", expected: "a=1"),
        Sending(name: "Secure not sent over http", setCookie: ["a=1; Secure"], to: "http://id.example.com/", expected: nil),
        Sending(name: "Secure set over http is rejected", setCookie: ["a=1; Secure"], from: "http://id.example.com/",
                to: "https://id.example.com/", expected: nil),
        Sending(name: "__Host- needs Secure, no Domain, Path=/", setCookie: ["__Host-a=1; Secure; Path=/", "__Host-b=2; Secure; Path=/; Domain=example.com", "__Host-c=3; Path=/"],
                to: "https://id.example.com/", expected: "__Host-a=1"),
        Sending(name: "__Secure- needs Secure", setCookie: ["__Secure-a=1; Secure", "__secure-b=2"], to: "https://id.example.com/", expected: "__Secure-a=1"),
        Sending(name: "attribute names in any case, spaces around", setCookie: ["  a = 1 ;  pAtH = /x ; SECURE ; HttpOnly ; dOmAiN = example.com "],
                to: "https://www.example.com/x/y", expected: "a=1"),
        Sending(name: "value with = and quotes kept", setCookie: [#"t="a=b=="; Path=/"#], to: "https://id.example.com/", expected: #"t="a=b==""#),
        Sending(name: "empty value", setCookie: ["a=; Path=/"], to: "https://id.example.com/", expected: "a="),
        Sending(name: "an Expires with a comma stays one cookie", setCookie: ["a=1; Expires=Wed, 09 Jun 2031 10:18:14 GMT, b=2"],
                to: "https://id.example.com/", expected: "a=1"),
        Sending(name: "multiple headers", setCookie: ["a=1", "b=2; Path=/", "c=3"], to: "https://id.example.com/", expected: "a=1; b=2; c=3"),
    ]

    @Test(arguments: CookieJarTests.sendings)
    func sendsCookiesWhereTheyBelong(_ test: Sending) throws {
        let from = try #require(URLParts(test.from)), to = try #require(URLParts(test.to))
        let jar = Self.jar(test.setCookie, scheme: from.scheme, host: from.host, path: from.path)
        #expect(jar.header(scheme: to.scheme, host: to.host, path: to.path, now: Self.now) == test.expected)
    }

    // MARK: - Garbage

    @Test(arguments: [
        "", "=", "=value", "  =1", "noequals", "; Path=/", "a\u{0}b=1", "a=1\u{7}", "a=1\r\nSet-Cookie: b=2", String(repeating: "x", count: 8_200) + "=1",
        "a=" + String(repeating: "v", count: 8_200), ";;;;", "\t", "a=1; Max-Age=0", "a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ])
    func garbageIsIgnored(_ header: String) {
        let jar = Self.jar([header])
        #expect(jar.count == 0)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now) == nil)
    }

    @Test func oddAttributesAreIgnoredNotFatal() {
        let jar = Self.jar(["a=1; Max-Age=soon; Expires=never; SameSite=Lax; Partitioned; =x; Foo"])
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now) == "a=1")
    }

    // MARK: - Expiry

    @Test func maxAgeZeroDeletesTheStoredCookie() {
        let jar = Self.jar(["sid=1; Path=/", "keep=2"])
        jar.store(["sid=gone; Path=/; Max-Age=0"], scheme: "https", host: "id.example.com", path: "/x", now: Self.now + 1)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now + 1) == "keep=2")
        #expect(jar.names == ["keep"])
    }

    @Test func anExpiresInThePastDeletesTheStoredCookie() {
        let jar = Self.jar(["sid=1"])
        jar.store(["sid=; Expires=Thu, 01 Jan 1970 00:00:01 GMT"], scheme: "https", host: "id.example.com", path: "/", now: Self.now)
        #expect(jar.count == 0)
    }

    @Test func deletionNeedsTheSameDomainAndPath() {
        let jar = Self.jar(["sid=1; Path=/a"])
        jar.store(["sid=; Max-Age=0; Path=/b"], scheme: "https", host: "id.example.com", path: "/", now: Self.now)
        #expect(jar.count == 1)
    }

    @Test func maxAgeWinsOverExpiresInEitherOrder() {
        let past = "Expires=Thu, 01 Jan 1970 00:00:01 GMT"
        let jar = Self.jar(["a=1; \(past); Max-Age=60", "b=2; Max-Age=60; \(past)", "c=3; Max-Age=-1; Expires=Wed, 09 Jun 2100 10:18:14 GMT"])
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now + 59) == "a=1; b=2")
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now + 60) == nil)
        #expect(jar.count == 0)
    }

    @Test func aCookieLapsesAtItsExpires() {
        let jar = Self.jar(["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT"], now: Self.june2021 - 10)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.june2021 - 1) == "a=1")
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.june2021) == nil)
    }

    @Test(arguments: [
        ("Wed, 09 Jun 2021 10:18:14 GMT", june2021), ("Wednesday, 09-Jun-21 10:18:14 GMT", june2021),
        ("Wed Jun  9 10:18:14 2021", june2021), ("09 JUNE 2021 10:18:14", june2021), ("Wed, 09-Jun-2021 10:18:14 UTC", june2021),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0), ("Sat, 29 Feb 2020 23:59:59 GMT", 1_583_020_799), ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
        ("1 jan 69 0:0:0", 3_124_224_000), ("1 jan 70 0:0:0", 0),
    ])
    func parsesCookieDates(_ text: String, _ seconds: Double) {
        #expect(CookieDate.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "never", "Wed, 09 Jun 2021", "09 Jun 2021 25:00:00", "09 Jun 2021 10:60:00", "31 Feb 2021 10:00:00", "30 Jun 1600 10:00:00",
        "0 Jun 2021 10:00:00", "09 Foo 2021 10:00:00", "09 Jun 2021 100:18:14", "09 Jun 20210 10:18:14", "Wed, 09 Jun 2021 10:18",
        "9999999999999999999999 Jun 2021 10:00:00",
    ])
    func rejectsNonDates(_ text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    // MARK: - Order, replacement, limits

    @Test func longerPathsFirstThenEarlierCreation() {
        let jar = CookieJar()
        jar.store(["short=1; Path=/"], scheme: "https", host: "id.example.com", path: "/", now: Self.now)
        jar.store(["late=2; Path=/o"], scheme: "https", host: "id.example.com", path: "/", now: Self.now + 5)
        jar.store(["deep=3; Path=/o/authorize", "early=4; Path=/o"], scheme: "https", host: "id.example.com", path: "/", now: Self.now + 1)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/o/authorize", now: Self.now + 6) == "deep=3; early=4; late=2; short=1")
    }

    @Test func aReplacementKeepsItsCreationTime() {
        let jar = CookieJar()
        jar.store(["a=1", "b=2"], scheme: "https", host: "id.example.com", path: "/", now: Self.now)
        jar.store(["a=3"], scheme: "https", host: "id.example.com", path: "/", now: Self.now + 10)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now + 10) == "a=3; b=2")
        #expect(jar.count == 2)
        #expect(jar.names == ["a", "b"])
    }

    @Test func sameNameDifferentPathOrDomainAreDistinct() {
        let jar = Self.jar(["a=root; Path=/", "a=o; Path=/o", "a=dom; Domain=example.com; Path=/"])
        #expect(jar.count == 3)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/o/x", now: Self.now) == "a=o; a=root; a=dom")
    }

    @Test func plainHTTPCannotShadowASecureCookie() {
        let jar = Self.jar(["sid=secret; Secure; Path=/"])
        jar.store(["sid=evil; Path=/"], scheme: "http", host: "id.example.com", path: "/", now: Self.now)
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now) == "sid=secret")
    }

    @Test func aFloodIsBoundedAndEvictsTheOldest() {
        let jar = CookieJar()
        let flood = (0..<200).map { "c\($0)=\($0); Path=/" }
        jar.store(flood, scheme: "https", host: "id.example.com", path: "/", now: Self.now)
        jar.store(flood.map { $0.replacingFirst("c", with: "d") }, scheme: "https", host: "id.example.com", path: "/", now: Self.now + 1)
        #expect(jar.count == CookieJar.maxCookies)
        #expect(jar.names.first == "c100")
        #expect(jar.names.last == "d199")
        let header = jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now + 2) ?? ""
        #expect(header.hasPrefix("c100=100; c101=101"))
        #expect(!header.contains("c99="))
    }

    /// A flood costs in proportion to its size: four times the rounds of
    /// 250 cookies, about four times the CPU time (TestSupport/Growth.swift).
    @Test func aHugeFloodStaysLinear() {
        let ratio = Growth.ratio(size: 5) { rounds in
            let jar = CookieJar()
            for round in 0..<rounds {
                jar.store((0..<250).map { "r\(round)c\($0)=\($0)" }, scheme: "https", host: "id.example.com", path: "/", now: Self.now + Double(round))
            }
            #expect(jar.count == CookieJar.maxCookies)
        }
        #expect(ratio < Growth.linearLimit, "4× the flood took \(ratio)× the CPU time")
    }

    @Test func namesNeverValues() {
        let jar = Self.jar(["session=topsecret", "csrftoken=alsosecret"])
        #expect(jar.names == ["session", "csrftoken"])
        #expect(!jar.names.joined().contains("secret"))
    }

    @Test func anEmptyJarSendsNothing() {
        let jar = CookieJar()
        #expect(jar.header(scheme: "https", host: "id.example.com", path: "/", now: Self.now) == nil)
        #expect(jar.count == 0)
        #expect(jar.names.isEmpty)
    }
}

/// Just enough of a URL for these tests: the jar itself takes parts.
private struct URLParts {
    var scheme: String, host: String, path: String

    init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        scheme = String(url[..<schemeEnd.lowerBound])
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        host = String(rest[..<hostEnd])
        path = String(rest[hostEnd...])
    }
}

private extension String {
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let found = firstIndex(of: target) else { return self }
        return String(self[..<found]) + replacement + String(self[index(after: found)...])
    }
}
