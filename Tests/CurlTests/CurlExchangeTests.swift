import Testing
@testable import Core
@testable import HTTP
@testable import Curl

/// What libcurl's header callback delivers, and which of it are the
/// response's headers (Curl/CurlExchange.swift).
struct CurlExchangeTests {
    static func headers(_ lines: [String]) -> [HTTPHeader] {
        exchange(lines).headers
    }

    static func exchange(_ lines: [String]) -> CurlExchange {
        // No connection: no socket to ACK.
        let exchange = CurlExchange(maxBodyBytes: 1, sockets: nil)
        for line in lines { exchange.receiveHeader(line) }
        return exchange
    }

    @Test func plainResponse() {
        #expect(Self.headers(["HTTP/1.1 302 Found\r\n", "Location: /next\r\n", "Set-Cookie: a=1\r\n", "\r\n"])
                == [HTTPHeader("Location", "/next"), HTTPHeader("Set-Cookie", "a=1")])
    }

    /// RFC 9110 §6.5: trailer fields come after the body and are not headers.
    @Test func trailersAreIgnored() {
        #expect(Self.headers(["HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n",
                              "Set-Cookie: injected=1\r\n", "Location: https://evil.example/\r\n", "\r\n"])
                == [HTTPHeader("Transfer-Encoding", "chunked")])
    }

    /// RFC 9110 §15.2: a 1xx response's fields belong to it, not to the final one.
    @Test func interimResponsesAreIgnored() {
        #expect(Self.headers(["HTTP/1.1 103 Early Hints\r\n", "Set-Cookie: early=1\r\n", "Location: /elsewhere\r\n", "\r\n",
                              "HTTP/1.1 100 Continue\r\n", "\r\n",
                              "HTTP/1.1 302 Found\r\n", "Location: /real\r\n", "\r\n"])
                == [HTTPHeader("Location", "/real")])
    }

    @Test func http2StatusLine() {
        #expect(Self.headers(["HTTP/2 103\r\n", "link: </a>\r\n", "\r\n", "HTTP/2 200\r\n", "content-type: text/html\r\n", "\r\n"])
                == [HTTPHeader("content-type", "text/html")])
    }

    /// RFC 9112 §5.2: an obs-fold line continues the field before it (one
    /// SP between), whatever it looks like, in every header authcode reads.
    @Test(arguments: [
        (["X-Note: a\r\n", " Location: http://evil.example/\r\n", "Location: /real\r\n"],
         [HTTPHeader("X-Note", "a Location: http://evil.example/"), HTTPHeader("Location", "/real")]),
        (["Set-Cookie: good=1\r\n", "X-Note: a\r\n", "\t\tSet-Cookie: evil=1; Path=/\r\n"],
         [HTTPHeader("Set-Cookie", "good=1"), HTTPHeader("X-Note", "a Set-Cookie: evil=1; Path=/")]),
        (["Set-Cookie: a=1;\r\n", " \t Path=/;\r\n", "\tHttpOnly\r\n"], [HTTPHeader("Set-Cookie", "a=1; Path=/; HttpOnly")]),
        (["Location: /a\r\n", " \r\n", "Refresh: 0\r\n"], [HTTPHeader("Location", "/a"), HTTPHeader("Refresh", "0")]),
        (["X-Empty:\r\n", " HTTP/1.1 302 Found\r\n"], [HTTPHeader("X-Empty", "HTTP/1.1 302 Found")]),
        // A fold after a line that is no field continues that line, not the field before it.
        (["Location: /a\r\n", "no colon here\r\n", " Location: /evil\r\n"], [HTTPHeader("Location", "/a")]),
    ])
    func foldedLineContinuesTheFieldBefore(lines: [String], expected: [HTTPHeader]) {
        let exchange = Self.exchange(["HTTP/1.1 302 Found\r\n"] + lines + ["\r\n"])
        #expect(exchange.headers == expected)
        #expect(!exchange.misplacedFold)
    }

    /// A fold with no field before it in its block continues nothing: the
    /// response is malformed (CurlTransport turns it into exit 8).
    @Test(arguments: [
        ["HTTP/1.1 302 Found\r\n", " Location: http://evil.example/\r\n", "Location: /real\r\n", "\r\n"],
        ["HTTP/1.1 302 Found\r\n", "\tSet-Cookie: evil=1\r\n", "\r\n"],
        ["HTTP/1.1 103 Early Hints\r\n", " Link: </a>\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n"],
        ["HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", " Location: /evil\r\n", "\r\n"],
    ])
    func foldWithNothingBeforeIsMalformed(lines: [String]) {
        #expect(Self.exchange(lines).misplacedFold)
    }

    /// A status line counts only where a response may start; in a trailer
    /// (or mid-section) it would otherwise open a second header section.
    @Test func statusLineOutOfPlaceStartsNothing() {
        #expect(Self.headers(["HTTP/1.1 302 Found\r\n", "Location: /real\r\n", "Transfer-Encoding: chunked\r\n", "\r\n",
                              "HTTP/1.1 302 Found\r\n", "Location: http://evil.example/\r\n", "\r\n"])
                == [HTTPHeader("Location", "/real"), HTTPHeader("Transfer-Encoding", "chunked")])
        #expect(Self.headers(["HTTP/1.1 302 Found\r\n", "Location: /real\r\n", "HTTP/1.1 302 Found\r\n", "Set-Cookie: evil=1\r\n", "\r\n"])
                == [HTTPHeader("Location", "/real"), HTTPHeader("Set-Cookie", "evil=1")])
    }
}
