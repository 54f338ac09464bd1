import Foundation
import Testing

/// `--version` from the built binary: the libraries as loaded, which the
/// in-process tests (RunTests/UsageRunTests) cannot see.
@Suite("--version")
struct VersionTests {
    /// Four lines: authcode's version, the commit it was built from (a
    /// hash from the Makefile's build, `unknown` from a plain `swift
    /// build`), and libcurl and its TLS library as loaded — the same
    /// versions the system's curl reports.
    @Test func version() async throws {
        let result = try await run(["--version"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5 && lines[4] == "", "\(result)")
        guard lines.count == 5 else { return }
        #expect(lines[0].wholeMatch(of: /authcode [0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(result)")
        #expect(lines[1].wholeMatch(of: /commit ([0-9a-f]{12}(-dirty)?|unknown)/) != nil, "\(result)")
        let curl = try await runProgram("curl", ["--version"])
        let words = curl.stdout.split(separator: "\n").first?.split(separator: " ").map(String.init) ?? []
        let libcurl = try #require(words.first { $0.hasPrefix("libcurl/") })
        let tls = try #require(words.first { $0.hasPrefix("OpenSSL/") || $0.hasPrefix("GnuTLS/") || $0.hasPrefix("LibreSSL/") })
        #expect(lines[2] == "libcurl " + libcurl.dropFirst("libcurl/".count), "\(result)\n\(curl.stdout)")
        #expect(lines[3] == tls.replacingOccurrences(of: "/", with: " "), "\(result)\n\(curl.stdout)")
    }
}
