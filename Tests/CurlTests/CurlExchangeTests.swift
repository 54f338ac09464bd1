import Testing
@testable import Core
@testable import HTTP
@testable import Curl

/// What libcurl's header callback delivers, and which of it are the
/// response's headers (Curl/CurlExchange.swift).
struct CurlExchangeTests {
    static func headers(_ lines: [String]) -> [HTTPHeader] {
        // No connection: no socket to ACK.
        let exchange = CurlExchange(maxBodyBytes: 1, sockets: nil)
        for line in lines { exchange.receiveHeader(line) }
        return exchange.headers
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
}
