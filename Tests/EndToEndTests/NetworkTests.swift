import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Exit 3 (network): refused connections and every kind of slowness, each
/// bounded by `--timeout` (fractional seconds, per request). No wall-clock
/// bound: libcurl's own "timed out" error proves the timeout ended the run,
/// and the runner kills (and fails) a run that hangs; that 0.5 s is not
/// rounded up is Tests/CurlTests/CurlTransportTests.swift's.
@Suite("Exit 3: network")
struct NetworkTests {
    @Test func connectionRefused() async throws {
        let port = try closedPort()
        let base = "http://127.0.0.1:\(port)/t/refused/direct"
        let result = try await run(["--authorize-url", base + "/authorize", "--token-url", base + "/token",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 3, ["127.0.0.1", "\(port)"])
    }

    @Test func connectionRefusedDuringDiscovery() async throws {
        let port = try closedPort()
        let result = try await run(["--issuer", "http://127.0.0.1:\(port)/t/refused/discovery",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 3, [])
    }

    struct Slow: Sendable, CustomTestStringConvertible {
        let scenario: String
        let endpoint: String
        var testDescription: String { scenario }
    }

    static let slow = [
        Slow(scenario: "token-slow", endpoint: "token"),
        Slow(scenario: "token-stall", endpoint: "token"),
        Slow(scenario: "token-drip", endpoint: "token"),
        Slow(scenario: "authorize-slow", endpoint: "authorize"),
    ]

    @Test(arguments: slow)
    func timeoutOfOneSecond(_ c: Slow) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(c.scenario) + ["--timeout", "1"], timeout: 15)
        expectFailure(result, exit: 3, ["timed out: Operation timed out after ", "/\(c.endpoint)"])
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func fractionalTimeout() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-slow") + ["--timeout", "0.5"], timeout: 15)
        expectFailure(result, exit: 3, ["timed out: Operation timed out after "])
    }

    @Test func quietKeepsOnlyTheErrorLine() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("token-slow") + ["--timeout", "1", "-q"], env: Fixture.demoSecretEnv, timeout: 15)
        expectFailure(result, exit: 3, ["timed out"])
        #expect(result.stderr.split(separator: "\n").count == 1, "-q: the error line alone\n\(result)")
    }
}

/// A loopback TCP port that nothing listens on: bound to get a free number, then closed.
func closedPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw HarnessError("bind() failed") }
    return UInt16(bigEndian: address.sin_port)
}
