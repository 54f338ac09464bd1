import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--cache` (README.md "Token cache"): reuse with zero requests, refresh
/// when stale, a full flow when nothing can be reused; files and locks.
@Suite("Token cache")
struct TokenCacheTests {
    static func requests(_ fx: Fixture) throws -> Int { try fx.hits().count }

    @Test func hitMakesNoRequestAndPrintsTheSameBody() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let first = try await run(fx.publicClient("direct") + cache.flags)
        expectTokenJSON(first)
        let before = try Self.requests(fx)
        let second = try await run(fx.publicClient("direct") + cache.flags + ["-v"])
        #expect(second.exitCode == 0)
        #expect(second.stdout == first.stdout)
        #expect(try Self.requests(fx) == before, "a hit makes no request")
        #expect(second.stderr.contains("* token from the cache (valid for "), "\(second)")
        #expect(second.stderr.contains("* token from the cache\n"), "\(second)")
    }

    @Test func entryAndDirectoryModes() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entries = cache.files(".token")
        #expect(entries.count == 1)
        for (path, mode) in [(cache.path, 0o700), ((cache.path as NSString).deletingLastPathComponent, 0o700), (entries[0], 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
        #expect(cache.files(".tmp").isEmpty, "no temporary file left behind")
    }

    @Test func keyFollowsTheIdentityNotTheSecret() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        func login(_ user: String, _ password: String) async throws -> RunResult {
            try await run(fx.publicClient("login-consent") + cache.flags + ["--form", "username=\(user)", "--form", "password=@-"],
                          stdin: password)
        }
        expectTokenJSON(try await login("alice", "wonderland"))
        expectTokenJSON(try await login("user7", "pw-7"))
        #expect(cache.files(".token").count == 2, "one entry per user")
        let redeemed = try fx.stats()["codes_redeemed"]
        // The same user again: a hit, however the password is given.
        expectTokenJSON(try await login("alice", "a different password never sent"))
        #expect(try fx.stats()["codes_redeemed"] == redeemed)
        for path in cache.files(".token") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for secret in ["wonderland", "pw-7", "alice", "user7"] { #expect(!text.contains(secret), "\(secret) in \(path)") }
        }
    }

    @Test func staleEntryIsRefreshedAndRotationKept() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("rotate") + cache.flags))
        // 3600 s tokens, asked to last longer: stale, so refreshed each time.
        for round in 1...2 {
            let result = try await run(fx.publicClient("rotate") + cache.flags + ["--min-ttl", "7200", "-v"])
            expectTokenJSON(result)
            #expect(result.stderr.contains("* token from a refresh\n"), "round \(round)\n\(result)")
        }
        let stats = try fx.stats()
        #expect(stats["codes_redeemed"] == 1)
        #expect(stats["refreshes"] == 2, "the rotated token of round 1 was stored and worked in round 2")
    }

    @Test func refreshKeepsTheOldRefreshTokenWhenNoneComesBack() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let first = expectTokenJSON(try await run(fx.publicClient("refresh-keep") + cache.flags + ["--scope", "openid"]))
        let refreshed = expectTokenJSON(try await run(fx.publicClient("refresh-keep") + cache.flags + ["--scope", "openid", "--min-ttl", "7200"]))
        #expect(refreshed["refresh_token"] as? String == first["refresh_token"] as? String)
        #expect(refreshed["access_token"] as? String != first["access_token"] as? String)
        #expect(refreshed["id_token"] is String)
    }

    @Test func invalidGrantDropsTheEntryAndLogsInAgain() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        try httpDelete("\(fx.base)/_tokens/\(fx.run)")
        let result = try await run(fx.publicClient("direct") + cache.flags + ["--min-ttl", "7200", "-v"])
        expectTokenJSON(result)
        #expect(result.stderr.contains("* the refresh token was refused (invalid_grant); dropping the entry and logging in again"), "\(result)")
        #expect(result.stderr.contains("* token from a new authorization flow"), "\(result)")
        #expect(try fx.stats()["codes_redeemed"] == 2)
    }

    @Test func otherRefusalsKeepTheEntry() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entry = try #require(cache.files(".token").first)
        let before = try Data(contentsOf: URL(fileURLWithPath: entry))
        // The token endpoint is down: exit 3, and the entry stays for later.
        let result = try await run(["--authorize-url", fx.issuer("direct") + "/authorize", "--token-url", "http://127.0.0.1:9/token",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect, "--min-ttl", "7200"] + cache.flags)
        expectFailure(result, exit: 3, ["127.0.0.1:9"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: entry)) == before)
    }

    /// `--refresh-token` with `--cache`: the answer is stored under the key,
    /// and the next run is a hit.
    @Test func refreshTokenAnswerIsStored() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let token = try await RefreshGrantTests.refreshToken(fx, "direct")
        let args = fx.endpoints("direct") + ["--client-id", "public-app", "--refresh-token", token] + cache.flags
        let first = try await run(args + ["-v"])
        expectTokenJSON(first)
        #expect(first.stderr.contains("* token from a refresh\n"), "\(first)")
        let before = try Self.requests(fx)
        let second = try await run(args)
        #expect(second.stdout == first.stdout)
        #expect(try Self.requests(fx) == before)
    }

    @Test func unknownLifetimeIsNotCached() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let result = try await run(fx.publicClient("no-expiry") + cache.flags + ["-v"])
        expectTokenJSON(result)
        #expect(result.stderr.contains("* token not cached: its lifetime is unknown (no expires_in, no JWT exp)"), "\(result)")
        #expect(cache.files(".token").isEmpty)
    }

    @Test func jwtAccessTokenLifetimeComesFromExp() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("jwt-access") + cache.flags))
        let second = try await run(fx.publicClient("jwt-access") + cache.flags + ["-v"])
        #expect(second.stderr.contains("* token from the cache (valid for 3"), "\(second)")
    }

    @Test func shortLivedTokensAreRefreshedWithinMinTTL() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("short-lived") + cache.flags))
        let result = try await run(fx.publicClient("short-lived") + cache.flags + ["-v"])
        #expect(result.stderr.contains("* token from a refresh"), "default --min-ttl 60 > expires_in 2\n\(result)")
        expectTokenJSON(try await run(fx.publicClient("short-lived") + cache.flags + ["--min-ttl", "0"]))
    }

    @Test func forgetDeletesWithoutARequest() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let before = try Self.requests(fx)
        let result = try await run(fx.publicClient("direct") + ["--forget", "--cache-dir", cache.path])
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        #expect(cache.files(".token").isEmpty)
        #expect(try Self.requests(fx) == before)
        let again = try await run(fx.publicClient("direct") + ["--forget", "--cache-dir", cache.path])
        #expect(again.exitCode == 0, "nothing to forget is fine\n\(again)")
    }

    @Test func corruptEntryIsReplacedWithAWarning() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entry = try #require(cache.files(".token").first)
        let whole = try Data(contentsOf: URL(fileURLWithPath: entry))
        try whole.prefix(whole.count - 5).write(to: URL(fileURLWithPath: entry))
        let result = try await run(fx.publicClient("direct") + cache.flags)
        expectTokenJSON(result)
        #expect(result.stderr == "authcode: warning: the cache entry \(entry) is corrupt or truncated; ignoring it and replacing it\n")
        let replaced = try Data(contentsOf: URL(fileURLWithPath: entry))
        #expect(replaced.count > whole.count - 5)
        #expect(try await run(fx.publicClient("direct") + cache.flags).stderr.isEmpty)
    }

    @Test(arguments: ["group-writable directory", "other-writable entry", "directory of another user", "entry of another user"])
    func unsafePlacesAreRefusedBeforeAnyRequest(kind: String) async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let entry = try #require(cache.files(".token").first)
        switch kind {
        case "group-writable directory": #expect(chmod(cache.path, 0o770) == 0)
        case "other-writable entry": #expect(chmod(entry, 0o602) == 0)
        case "directory of another user": #expect(chown(cache.path, 65534, 65534) == 0)
        default: #expect(chown(entry, 65534, 65534) == 0)
        }
        let before = try Self.requests(fx)
        let result = try await run(fx.publicClient("direct") + cache.flags)
        expectFailure(result, exit: 2, [kind.hasSuffix("user") ? "belongs to another user" : "can be written by group or others"])
        #expect(try Self.requests(fx) == before)
    }

    @Test func directoryThatCannotBeCreatedIsExit2() async throws {
        let fx = try await Fixture.make()
        let file = try TempFile("not a directory")
        let result = try await run(fx.publicClient("direct") + ["--cache", "--cache-dir", file.path + "/authcode"])
        expectFailure(result, exit: 2, ["cannot create the cache directory"])
    }

    @Test func lockHeldTooLongIsExit3() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        let lock = try #require(cache.files(".lock").first)
        let descriptor = open(lock, O_RDWR)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let result = try await run(fx.publicClient("direct") + cache.flags + ["--min-ttl", "7200", "--timeout", "0.5"], timeout: 10)
        expectFailure(result, exit: 3, ["another authcode run has held the cache lock for more than 0.5 s"])
    }

    /// 16 runs started together with an empty cache: one flow at the
    /// server. Started by one shell at once (the test runner's own gate
    /// would let only a few run at a time).
    @Test func runsStartedTogetherMintOnce() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let binary = try Paths.binary.get()
        let arguments = (fx.publicClient("direct") + cache.flags).map { "'\($0)'" }.joined(separator: " ")
        let script = "mkdir -p '\(cache.root)' && for i in $(seq 16); do '\(binary)' \(arguments) > '\(cache.root)'/out.$i & done; wait"
        let result = try await run(["-c", script], timeout: 60, executable: "/bin/bash")
        #expect(result.exitCode == 0, "\(result)")
        let outputs = try (1...16).map { try String(contentsOfFile: "\(cache.root)/out.\($0)", encoding: .utf8) }
        #expect(Set(outputs).count == 1)
        #expect(jsonObject(outputs[0])?["access_token"] is String)
        #expect(try fx.stats()["codes_redeemed"] == 1)
        #expect(try fx.hits(to: "authorize").count == 1)
    }
}

/// DELETE through curl (bounded to 10 s).
func httpDelete(_ url: String) throws {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "--silent", "--fail", "--max-time", "10", "-X", "DELETE", url]
    curl.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try curl.run()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else { throw HarnessError("DELETE \(url) failed: curl exit \(curl.terminationStatus)") }
}
