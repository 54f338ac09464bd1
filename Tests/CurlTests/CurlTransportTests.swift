import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Core
@testable import HTTP
@testable import Curl

/// The libcurl transport's own rules, against the real libcurl (no server:
/// each case ends before a connection).
struct CurlTransportTests {
    /// --timeout and --connect-timeout reach libcurl in milliseconds, rounded
    /// up, never to whole seconds (0.5 s stays 500 ms), never 0 (no limit).
    @Test(arguments: [(0.5, 500), (1, 1000), (30, 30_000), (0.0001, 1), (0.0015, 2), (86_400, 86_400_000)])
    func millisecondsKeepFractions(seconds: Double, milliseconds: Int) {
        #expect(CurlTransport.milliseconds(seconds) == milliseconds)
    }

    /// Every option is checked: libcurl refuses a string option over its
    /// input limit (CURL_MAX_INPUT_LENGTH, 8 MB), and the request ends
    /// there naming the option, instead of going out without it.
    @Test func aRefusedOptionEndsTheRequest() throws {
        let transport = try CurlTransport(settings: TransportSettings())
        let url = "http://127.0.0.1:9/" + String(repeating: "a", count: 8_000_001)
        do throws(HTTPError) {
            _ = try transport.send(HTTPRequest(method: .get, url: url))
            Issue.record("an 8 MB URL was accepted")
        } catch {
            guard case .optionRefused(let option, let version, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(option == "CURLOPT_URL" && reason == "A libcurl function was given a bad argument")
            #expect(!version.isEmpty)
        }
    }

    /// The error buffer lives with the handle and is cleared per request:
    /// two refused connections on one handle each read their own reason.
    @Test func errorsOfOneHandleStayApart() throws {
        let transport = try CurlTransport(settings: TransportSettings())
        for port in [try Self.closedPort(), try Self.closedPort()] {
            do throws(HTTPError) {
                _ = try transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)/x"))
                Issue.record("nothing listens on \(port), yet it answered")
            } catch {
                guard case .network(.other, let detail, let url, nil) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(detail.contains("127.0.0.1 port \(port)"), "\(detail)")
                #expect(url == "http://127.0.0.1:\(port)/x")
            }
        }
    }

    /// A loopback port nothing listens on: bound by the kernel's choice, then closed.
    static func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
