import Testing
@testable import HTTP

/// The one definition of loopback (HTTP/Loopback.swift): by spelling, the
/// way libcurl and `inet_pton` read an address; anything else is a name.
struct LoopbackTests {
    static let loopback = [
        "localhost", "LOCALHOST", "LocalHost",
        "127.0.0.1", "127.0.0.2", "127.1.2.3", "127.255.255.255", "127.0.0.0", "127.10.200.99",
        "::1", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "0::1", "::0:1", "::0001", "0:0::0:1", "::0.0.0.1",
    ]

    /// Names (DNS, /etc/hosts, a proxy answers for them) and other addresses.
    static let names = [
        // numbers only to inet_aton and curl's URL parser
        "127.1", "127.0.1", "0x7f.0.0.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.000.000.001", "127.0.0.01", "127.00.0.1",
        "017700000001", "127.0.0.0x1", "127.0.0.1e0",
        // DNS names that look like addresses or like localhost
        "127.0.0.1.nip.io", "127.0.0.1.", "localhost.", "localhost.example", "localhost.localdomain", "app.localhost", "mylocalhost",
        "localhost:", "local-host", "loca1host",
        // percent-encoded, signed, spaced, empty parts, out of range
        "%31%32%37.0.0.1", "127%2E0.0.1", "localhos%74", "+127.0.0.1", "127.+0.0.1", "127.0.0.-1", "127..0.1", ".127.0.0.1",
        "127.0.0.256", "127.0.0", "127.0.0.1.5", "", "1270.0.0.1",
        // other addresses
        "128.0.0.1", "0.0.0.0", "10.0.0.1", "126.255.255.255", "::", "::2", "::ffff:127.0.0.1", "::ffff:7f00:1", "1::1", "fe80::1",
        // not addresses libcurl reads: zones, too many groups, bad hex
        "::1%lo", "::1%25lo", ":::1", "::1::", "0:0:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1:", "::00001", "::g", "[::1]",
        // non-ASCII look-alikes
        "ｌocalhost", "１２７.0.0.1", "localhost\u{200B}",
    ]

    @Test(arguments: loopback)
    func isLoopback(host: String) {
        #expect(Loopback.isLoopback(host))
    }

    @Test(arguments: names)
    func isAName(host: String) {
        #expect(!Loopback.isLoopback(host))
    }

    @Test(arguments: [
        ("1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]),
        ("fe80::a:B", [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0x0B]),
        ("::ffff:10.1.2.3", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 1, 2, 3]),
        ("1::", [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ] as [(String, [UInt8])])
    func ipv6Bytes(text: String, bytes: [UInt8]) {
        #expect(Loopback.ipv6(Array(text.utf8)[...]) == bytes)
    }
}
