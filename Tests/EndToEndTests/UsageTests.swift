import Foundation
import Testing

/// Exit 2 (usage), `--help` and `--version` (README.md "Options" and "Exit codes"). No server needed:
/// every endpoint below is on a port nothing listens on, and none may be contacted.
@Suite("Exit 2: usage")
struct UsageTests {
    static let authorize = "http://127.0.0.1:9/t/usage/direct/authorize"
    static let token = "http://127.0.0.1:9/t/usage/direct/token"
    static let valid = ["--authorize-url", authorize, "--token-url", token, "--client-id", "demo-app",
                        "--redirect-uri", Fixture.redirect]

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let args: [String]
        var env: [String: String] = [:]
        /// Each must appear on stderr.
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no arguments", args: [], expected: ["missing", "--help"]),
        Case(name: "unknown option", args: valid + ["--clientid", "x"], expected: ["unknown option '--clientid'", "Did you mean '--client-id'"]),
        Case(name: "missing --client-id", args: Array(valid.prefix(4)) + ["--redirect-uri", Fixture.redirect], expected: ["--client-id"]),
        Case(name: "missing --redirect-uri", args: Array(valid.prefix(6)), expected: ["--redirect-uri"]),
        Case(name: "no endpoints", args: ["--client-id", "x", "--redirect-uri", Fixture.redirect], expected: ["--authorize-url", "--issuer"]),
        Case(name: "bad URL", args: ["--authorize-url", "not a url"] + valid.dropFirst(2), expected: ["--authorize-url", "not a url"]),
        Case(name: "bad --issuer", args: ["--issuer", "::nope", "--client-id", "x", "--redirect-uri", Fixture.redirect], expected: ["--issuer"]),
        Case(name: "bad --pkce", args: valid + ["--pkce", "S512"], expected: ["S512", "--pkce"]),
        Case(name: "bad --print", args: valid + ["--print", "everything"], expected: ["everything", "--print"]),
        Case(name: "bad --method", args: valid + ["--method", "PUT"], expected: ["PUT", "--method"]),
        Case(name: "bad --auth-method", args: valid + ["--auth-method", "private_key_jwt"], expected: ["private_key_jwt", "--auth-method"]),
        Case(name: "basic auth without a secret", args: valid + ["--auth-method", "client_secret_basic"], expected: ["--client-secret"]),
        Case(name: "--timeout abc", args: valid + ["--timeout", "abc"], expected: ["abc", "--timeout"]),
        Case(name: "--max-hops 0", args: valid + ["--max-hops", "0"], expected: ["--max-hops"]),
        Case(name: "--header without a colon", args: valid + ["-H", "nocolon"], expected: ["--header"]),
        Case(name: "--form without =", args: valid + ["--form", "username"], expected: ["--form"]),
        Case(name: "--step without a URL", args: valid + ["--step", "POST"], expected: ["--step"]),
        Case(name: "@missing-file", args: valid + ["--client-secret", "@/nonexistent/authcode-e2e/secret"],
             expected: ["/nonexistent/authcode-e2e/secret", "--client-secret"]),
        Case(name: "--verbose --quiet", args: valid + ["--verbose", "--quiet"], expected: ["--verbose", "--quiet"]),
        Case(name: "bad value in the environment", args: valid, env: ["AUTHCODE_PKCE": "S512"], expected: ["S512"]),
    ]

    @Test(arguments: cases)
    func usageError(_ c: Case) async throws {
        let result = try await run(c.args, env: c.env)
        expectFailure(result, exit: 2, c.expected)
        #expect(!result.stderr.contains("demo-secret"))
    }

    @Test(arguments: ["--help", "-h"])
    func help(_ flag: String) async throws {
        let result = try await run([flag])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("USAGE") && result.stdout.contains("EXIT CODES"), "\(result)")
        for option in ["--issuer", "--client-id", "--redirect-uri", "--print", "--step", "--max-hops", "--allow-http"] {
            #expect(result.stdout.contains(option), "--help lists \(option)")
        }
        for code in 2...8 { #expect(result.stdout.contains("  \(code)  "), "--help documents exit \(code)") }
    }

    @Test func helpWinsOverOtherArguments() async throws {
        let result = try await run(["--client-id", "x", "--help"])
        #expect(result.exitCode == 0 && result.stdout.contains("USAGE"), "\(result)")
    }

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

    /// discovery-no-s256: the server's metadata lists only `plain`. The product
    /// stops before the authorization request with exit 2 and a hint naming
    /// `--pkce plain` (the contract is silent on this case).
    @Test func discoveryWithoutS256() async throws {
        let fx = try await Fixture.make()
        let result = try await run(["--issuer", fx.issuer("discovery-no-s256"), "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 2, ["S256", "--pkce plain"])
        #expect(try fx.hits(to: "authorize").isEmpty, "no authorization request")
    }
}
