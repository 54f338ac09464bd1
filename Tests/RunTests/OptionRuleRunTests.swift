import Testing
@testable import Core
@testable import CLI

/// Rules between options (CLI/OptionRules.swift) and values that cannot
/// work, each exit 2 before any request. Moved from the `usage` and
/// `conflicts` tests of EndToEndTests' BatchTests, TokenCacheTests,
/// RefreshGrantTests, TrustedOriginTests and OutputFileTests.
struct OptionRuleRunTests {
    static let flow = ["--authorize-url", "http://127.0.0.1:9/a", "--token-url", "http://127.0.0.1:9/t",
                       "--client-id", "a", "--redirect-uri", ScriptedServer.redirect]
    static let refresh = ["--token-url", "http://127.0.0.1:9/token", "--client-id", "a", "--refresh-token", "r"]

    static func expectUsage(_ arguments: [String], _ message: String, hint: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let ran = authcode(arguments)
        expectFailure(ran, .usage, "authcode: error: \(message)\n" + (hint ? "See 'authcode --help'.\n" : ""), sourceLocation: sourceLocation)
        #expect(ran.requests.isEmpty, "nothing is sent", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        (["--parallel", "4"], "'--parallel <n>' works with '--users <file>'", true),
        (["--shard", "1/2"], "'--shard <k/n>' works with '--users <file>'", true),
        (["--users", "x", "--shard", "3/2"], "invalid value '3/2' for '--shard': expected K/N with 1 <= K <= N, e.g. 2/4", true),
        (["--users", "x", "--parallel", "0"], "invalid value '0' for '--parallel': expected a whole number from 1 to 256", true),
        (["--users", "/nonexistent/users.csv"], "cannot read '/nonexistent/users.csv' for '--users': no such file", false),
    ])
    func batchOptions(extra: [String], message: String, hint: Bool) {
        Self.expectUsage(Self.flow + extra, message, hint: hint)
    }

    @Test(arguments: [
        (["--min-ttl", "5"], "'--min-ttl <seconds>' works with '--cache'"),
        (["--cache", "--print", "code"], "'--print code' redeems nothing, so there is nothing to cache; drop '--cache'"),
        (["--cache", "--min-ttl", "-1"], "invalid value '-1' for '--min-ttl': expected a whole number from 0 to 31536000"),
    ])
    func cacheOptions(extra: [String], message: String) {
        Self.expectUsage(Self.flow + extra, message)
    }

    @Test(arguments: [
        (["--print", "code"], "'--print code' stops before the token request; '--refresh-token' has no code to print"),
        (["--users", "-"], "'--refresh-token' cannot be used with '--users': each record is its own login"),
    ])
    func refreshTokenConflicts(extra: [String], message: String) {
        Self.expectUsage(Self.refresh + extra, message)
    }

    @Test func refreshTokenNeedsOnlyTheTokenEndpoint() {
        Self.expectUsage(["--client-id", "a", "--refresh-token", "r"], "missing '--token-url <url>' (or '--issuer <url>' to discover endpoints)")
    }

    @Test(arguments: ["https://login.example/path", "login.example", "https://user@login.example", "https://login.example/?q"])
    func trustOriginMustBeAnOrigin(value: String) {
        Self.expectUsage(Self.flow + ["--trust-origin", value],
                         "invalid value '\(value)' for '--trust-origin': expected an origin such as https://login.example or http://127.0.0.1:8080")
    }

    @Test(arguments: [
        ("/dev/stdout", "it is a symbolic link (-o replaces the file it names, so it would replace the link, not write through it)"),
        ("/dev/null", "it is not a regular file (-o replaces the file it names)"),
        ("/tmp", "it is a directory"),
        ("/tmp/", "it names a directory, not a file"),
    ])
    func outputIsNotAFileToReplace(path: String, reason: String) {
        Self.expectUsage(UsageRunTests.valid + ["-o", path], "cannot write '\(path)' for '-o': \(reason)")
    }

    @Test func forgetHasNothingToWrite() {
        Self.expectUsage(UsageRunTests.valid + ["--forget", "-o", "token"],
                         "'--forget' prints nothing, so '--output <file>' has nothing to write; drop one of them")
    }
}
