import Testing
@testable import Walk

/// Whom a passkey may answer (WebAuthn Level 3 §5.1.3, §5.1.4.1): the RP ID
/// is the origin's host or a registrable suffix of it, a domain and never an
/// IP literal, and the origin a secure context.
struct RelyingPartyIDTests {
    @Test(arguments: [
        // (asked rpId, origin) → the RP ID used
        (nil, "https://login.example.com", "login.example.com"),
        ("login.example.com", "https://login.example.com", "login.example.com"),
        ("example.com", "https://login.example.com", "example.com"),
        ("example.com", "https://a.b.login.example.com:8443", "example.com"),
        ("EXAMPLE.com", "https://login.example.com", "example.com"),
        ("xn--bcher-kva.example", "https://login.xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("localhost", "http://localhost:8080", "localhost"),
        (nil, "http://localhost:8080", "localhost"),
        ("localhost", "https://localhost", "localhost"),
        ("app.localhost", "http://app.localhost:3000", "app.localhost"),
        ("keycloak", "https://keycloak:8443", "keycloak"),
    ] as [(String?, String, String)])
    func allowed(_ rpID: String?, _ origin: String, _ used: String) throws {
        #expect(try RelyingPartyID.check(rpID, origin: origin) == .init(rpID: used, origin: origin))
    }

    @Test(arguments: [
        // A parent that is a public suffix under the list's default rule.
        ("com", "https://login.example.com", WebAuthnError.rpIDNotForOrigin(rpID: "com", origin: "https://login.example.com")),
        ("localhost", "http://app.localhost:3000", .rpIDNotForOrigin(rpID: "localhost", origin: "http://app.localhost:3000")),
        // Another site, a child, a look-alike suffix not on a label boundary.
        ("example.org", "https://login.example.com", .rpIDNotForOrigin(rpID: "example.org", origin: "https://login.example.com")),
        ("a.login.example.com", "https://login.example.com", .rpIDNotForOrigin(rpID: "a.login.example.com", origin: "https://login.example.com")),
        ("ample.com", "https://login.example.com", .rpIDNotForOrigin(rpID: "ample.com", origin: "https://login.example.com")),
        ("evil-example.com", "https://example.com", .rpIDNotForOrigin(rpID: "evil-example.com", origin: "https://example.com")),
        // IP literals, as rpId or as the origin's host, v4 and v6.
        ("127.0.0.1", "http://localhost", .ipLiteral("127.0.0.1")),
        (nil, "https://127.0.0.1:8443", .ipLiteral("127.0.0.1")),
        ("0.0.1", "https://127.0.0.1", .ipLiteral("127.0.0.1")),
        (nil, "https://[::1]:8443", .ipLiteral("::1")),
        (nil, "http://[2001:db8::1]", .ipLiteral("2001:db8::1")),
        ("::1", "https://localhost", .ipLiteral("::1")),
        ("[::1]", "https://localhost", .ipLiteral("[::1]")),
        ("1.2.3", "https://localhost", .ipLiteral("1.2.3")),
        ("host.0x7f", "https://localhost", .ipLiteral("host.0x7f")),
        ("example.123", "https://localhost", .ipLiteral("example.123")),
        // Not a domain.
        ("", "https://login.example.com", .invalidRPID("")),
        ("example.com.", "https://example.com", .invalidRPID("example.com.")),
        ("-example.com", "https://example.com", .invalidRPID("-example.com")),
        ("ex_ample.com", "https://example.com", .invalidRPID("ex_ample.com")),
        ("bücher.example", "https://bücher.example", .notAnOrigin("https://bücher.example")),
        // Not a secure context: plain http off this machine.
        ("example.com", "http://login.example.com", .insecureOrigin("http://login.example.com")),
        // Not a serialized origin: a path, a default port, upper case, another scheme.
        (nil, "https://login.example.com/", .notAnOrigin("https://login.example.com/")),
        (nil, "https://login.example.com:443", .notAnOrigin("https://login.example.com:443")),
        (nil, "https://Login.example.com", .notAnOrigin("https://Login.example.com")),
        (nil, "ftp://login.example.com", .notAnOrigin("ftp://login.example.com")),
        (nil, "login.example.com", .notAnOrigin("login.example.com")),
    ] as [(String?, String, WebAuthnError)])
    func refused(_ rpID: String?, _ origin: String, _ error: WebAuthnError) {
        #expect(throws: error) { try RelyingPartyID.check(rpID, origin: origin) }
    }

    @Test(arguments: ["127.0.0.1", "10.1", "1", "0x7f.1", "::1", "fe80::1%eth0", "example.0", "example.0x", "[::1]", "1.2.3.4."])
    func ipLiterals(_ host: String) {
        #expect(RelyingPartyID.isIPLiteral(host))
    }

    @Test(arguments: ["example.com", "localhost", "a1.example", "0x.example", "x0.example", "example.x1"])
    func domains(_ host: String) {
        #expect(!RelyingPartyID.isIPLiteral(host))
        #expect(RelyingPartyID.isDomain(host))
    }

    @Test func domainLengths() {
        let label63 = String(repeating: "a", count: 63)
        #expect(RelyingPartyID.isDomain(label63 + ".example"))
        #expect(!RelyingPartyID.isDomain(label63 + "a.example"))
        let long = Array(repeating: String(repeating: "a", count: 49), count: 5).joined(separator: ".")  // 249 bytes
        #expect(RelyingPartyID.isDomain(long + ".abc"))  // 253
        #expect(!RelyingPartyID.isDomain(long + ".abcd"))  // 254
    }
}
