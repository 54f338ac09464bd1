import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// `--cache` (README.md "Token cache") on a real file system: reuse with
/// zero requests, refresh when stale, a full flow when nothing can be
/// reused; files, modes and locks. Moved from EndToEndTests/TokenCacheTests
/// (runs started together as processes, and a token endpoint that refuses
/// connections, stay there).
struct TokenCacheRunTests {
    @Test func hitMakesNoRequestAndPrintsTheSameBody() {
        let server = ScriptedServer()
        let cache = CacheDir()
        let first = authcode(server.publicClient() + cache.flags, server: server)
        expectToken(first, from: server)
        let before = server.requests.count
        let second = authcode(server.publicClient() + cache.flags + ["-v"], server: server)
        #expect(second.exit == .success)
        #expect(second.out == first.out)
        #expect(server.requests.count == before, "a hit makes no request")
        #expect(second.err.contains("* token from the cache (valid for "), "\(second)")
        #expect(second.err.hasSuffix("* token from the cache\n"), "\(second)")
    }

    @Test func entryAndDirectoryModes() throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let entries = cache.files(".token")
        #expect(entries.count == 1)
        for (path, mode) in [(cache.path, 0o700), ((cache.path as NSString).deletingLastPathComponent, 0o700), (entries[0], 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
        #expect(cache.files(".tmp").isEmpty, "no temporary file left behind")
    }

    @Test func keyFollowsTheIdentityNotTheSecret() throws {
        let server = ScriptedServer(.loginAndConsent)
        let cache = CacheDir()
        func login(_ user: String, _ password: String) -> Ran {
            authcode(server.publicClient() + cache.flags + ["--form", "username=\(user)", "--form", "password=@-"], stdin: password, server: server)
        }
        expectToken(login("alice", "wonderland"), from: server)
        expectToken(login("user7", "pw-7"), from: server)
        #expect(cache.files(".token").count == 2, "one entry per user")
        #expect(server.codesRedeemed == 2)
        // The same user again: a hit, however the password is given.
        let again = login("alice", "a different password never sent")
        #expect(again.exit == .success, "\(again)")
        #expect(server.codesRedeemed == 2)
        for path in cache.files(".token") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for secret in ["wonderland", "pw-7", "alice", "user7"] { #expect(!text.contains(secret), "\(secret) in \(path)") }
        }
    }

    @Test func staleEntryIsRefreshedAndRotationKept() {
        let server = ScriptedServer(behaviour: .init(rotatesRefreshTokens: true))
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        // 3600 s tokens, asked to last longer: stale, so refreshed each time.
        for round in 1...2 {
            let ran = authcode(server.publicClient() + cache.flags + ["--min-ttl", "7200", "-v"], server: server)
            expectToken(ran, from: server)
            #expect(ran.err.contains("* token from a refresh\n"), "round \(round)\n\(ran)")
        }
        #expect(server.codesRedeemed == 1)
        #expect(server.refreshes == 2, "the rotated token of round 1 was stored and worked in round 2")
    }

    @Test func refreshKeepsTheOldRefreshTokenWhenNoneComesBack() {
        let server = ScriptedServer(behaviour: .init(refreshOmitsRefreshToken: true))
        let cache = CacheDir()
        let first = expectToken(authcode(server.publicClient() + cache.flags + ["--scope", "openid"], server: server), from: server)
        let ran = authcode(server.publicClient() + cache.flags + ["--scope", "openid", "--min-ttl", "7200"], server: server)
        #expect(ran.exit == .success, "\(ran)")
        let refreshed = ran.json ?? [:]
        #expect(jsonObject(server.lastTokenBody ?? "")?["refresh_token"] == nil, "the server sent none")
        #expect(refreshed["refresh_token"] as? String == first["refresh_token"] as? String)
        #expect(refreshed["access_token"] as? String != first["access_token"] as? String)
        #expect(refreshed["id_token"] is String)
    }

    @Test func invalidGrantDropsTheEntryAndLogsInAgain() {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        server.revokeRefreshTokens()
        let ran = authcode(server.publicClient() + cache.flags + ["--min-ttl", "7200", "-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.contains("* the refresh token was refused (invalid_grant); dropping the entry and logging in again"), "\(ran)")
        #expect(ran.err.contains("* token from a new authorization flow"), "\(ran)")
        #expect(server.codesRedeemed == 2)
    }

    /// `--refresh-token` with `--cache`: the answer is stored under the key,
    /// and the next run is a hit.
    @Test func refreshTokenAnswerIsStored() throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        let token = try #require(expectToken(authcode(server.publicClient(), server: server), from: server)["refresh_token"] as? String)
        let args = server.endpoints + ["--client-id", "public-app", "--refresh-token", token] + cache.flags
        let first = authcode(args + ["-v"], server: server)
        expectToken(first, from: server)
        #expect(first.err.contains("* token from a refresh\n"), "\(first)")
        let before = server.requests.count
        let second = authcode(args, server: server)
        #expect(second.out == first.out)
        #expect(server.requests.count == before)
    }

    @Test func unknownLifetimeIsNotCached() {
        let server = ScriptedServer(behaviour: .init(expiresIn: nil))
        let cache = CacheDir()
        let ran = authcode(server.publicClient() + cache.flags + ["-v"], server: server)
        expectToken(ran, from: server)
        #expect(ran.err.contains("* token not cached: its lifetime is unknown (no expires_in, no JWT exp)"), "\(ran)")
        #expect(cache.files(".token").isEmpty)
    }

    @Test func jwtAccessTokenLifetimeComesFromExp() {
        let server = ScriptedServer(behaviour: .init(expiresIn: nil, jwtAccessToken: true))
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let second = authcode(server.publicClient() + cache.flags + ["-v"], server: server)
        #expect(second.err.contains("* token from the cache (valid for 3"), "\(second)")
        #expect(server.codesRedeemed == 1)
    }

    @Test func shortLivedTokensAreRefreshedWithinMinTTL() {
        let server = ScriptedServer(behaviour: .init(expiresIn: "2"))
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let ran = authcode(server.publicClient() + cache.flags + ["-v"], server: server)
        #expect(ran.err.contains("* token from a refresh"), "default --min-ttl 60 > expires_in 2\n\(ran)")
        #expect(server.refreshes == 1)
        let requests = server.requests.count
        expectToken(authcode(server.publicClient() + cache.flags + ["--min-ttl", "0"], server: server), from: server)
        #expect(server.requests.count == requests, "with --min-ttl 0 the refreshed entry is a hit")
    }

    @Test func forgetDeletesWithoutARequest() {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let before = server.requests.count
        let ran = authcode(server.publicClient() + ["--forget", "--cache-dir", cache.path], server: server)
        #expect(ran.exit == .success && ran.out.isEmpty && ran.err.isEmpty, "\(ran)")
        #expect(cache.files(".token").isEmpty)
        #expect(server.requests.count == before)
        let again = authcode(server.publicClient() + ["--forget", "--cache-dir", cache.path], server: server)
        #expect(again.exit == .success, "nothing to forget is fine\n\(again)")
    }

    @Test func corruptEntryIsReplacedWithAWarning() throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let entry = try #require(cache.files(".token").first)
        let whole = try Data(contentsOf: URL(fileURLWithPath: entry))
        try whole.prefix(whole.count - 5).write(to: URL(fileURLWithPath: entry))
        let ran = authcode(server.publicClient() + cache.flags, server: server)
        expectToken(ran, from: server)
        #expect(ran.err == "authcode: warning: the cache entry \(entry) is corrupt or truncated; ignoring it and replacing it\n")
        let replaced = try Data(contentsOf: URL(fileURLWithPath: entry))
        #expect(replaced.count > whole.count - 5)
        #expect(authcode(server.publicClient() + cache.flags, server: server).err.isEmpty)
    }

    @Test(arguments: ["group-writable directory", "other-writable entry", "directory of another user", "entry of another user"])
    func unsafePlacesAreRefusedBeforeAnyRequest(kind: String) throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let entry = try #require(cache.files(".token").first)
        let place: String
        switch kind {
        case "group-writable directory": #expect(chmod(cache.path, 0o770) == 0); place = "the cache directory '\(cache.path)'"
        case "other-writable entry": #expect(chmod(entry, 0o602) == 0); place = "the cache entry '\(entry)'"
        case "directory of another user": #expect(chown(cache.path, 65534, 65534) == 0); place = "the cache directory '\(cache.path)'"
        default: #expect(chown(entry, 65534, 65534) == 0); place = "the cache entry '\(entry)'"
        }
        let before = server.requests.count
        let ran = authcode(server.publicClient() + cache.flags, server: server)
        #expect(ran.exit == .usage && ran.out.isEmpty, "\(ran)")
        let problem = kind.hasSuffix("user") ? "belongs to another user" : "can be written by group or others"
        #expect(ran.errorLine?.hasPrefix("authcode: error: \(place)") == true && ran.errorLine?.contains(problem) == true, "\(ran)")
        #expect(server.requests.count == before)
    }

    @Test func directoryThatCannotBeCreatedIsExit2() throws {
        let server = ScriptedServer()
        let file = try TempFile("not a directory")
        let ran = authcode(server.publicClient() + ["--cache", "--cache-dir", file.path + "/authcode"], server: server)
        #expect(ran.exit == .usage && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine?.hasPrefix("authcode: error: cannot create the cache directory '\(file.path)/authcode'") == true, "\(ran)")
        #expect(ran.requests.isEmpty)
    }

    @Test func lockHeldTooLongIsExit3() throws {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let lock = try #require(cache.files(".lock").first)
        // flock(2) locks belong to the open file description: this one
        // excludes the run's own open of the same file, in this process too.
        let descriptor = open(lock, O_RDWR)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let before = server.requests.count
        let ran = authcode(server.publicClient() + cache.flags + ["--min-ttl", "7200", "--timeout", "0.5"], server: server)
        #expect(ran.exit == .network && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine?.hasPrefix("authcode: error: another authcode run has held the cache lock for more than 0.5 s") == true, "\(ran)")
        #expect(server.requests.count == before, "no refresh without the lock")
    }
}
