import Foundation
import Testing

/// The cache key covers every input that chooses which token is minted or
/// for whom (README.md "Token cache"): two logins that differ in a field of
/// any name, a `--step` body or a header never share an entry — the second
/// user never gets the first one's token — while a rotated password still
/// finds its entry. Each test counts the token requests at the fixture.
@Suite("Cache identity")
struct CacheIdentityTests {
    static func tokenRequests(_ fx: Fixture) throws -> Int { try fx.hits(to: "token").count }

    /// Logins that differ only in a `user[email]` field (not a name any
    /// allow-list of identity fields knows): two token requests.
    @Test func oddlyNamedFieldKeysTheEntry() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let first = try await run(fx.publicClient("direct") + cache.flags + ["--form", "user[email]=blue@fixture.test"])
        let second = try await run(fx.publicClient("direct") + cache.flags + ["--form", "user[email]=green@fixture.test"])
        let a = expectTokenJSON(first), b = expectTokenJSON(second)
        #expect(try Self.tokenRequests(fx) == 2, "each login minted its own token")
        #expect(a["access_token"] as? String != b["access_token"] as? String)
        #expect(cache.files(".token").count == 2)
        // Each login again: a hit, no request.
        let again = try await run(fx.publicClient("direct") + cache.flags + ["--form", "user[email]=blue@fixture.test"])
        #expect(again.stdout == first.stdout)
        #expect(try Self.tokenRequests(fx) == 2)
    }

    /// A Devise-style form (`user[email]`, `user[password]`): each user gets
    /// a token for themselves; a changed password alone still hits.
    @Test func deviseUsersGetTheirOwnTokensAndARotatedPasswordStillHits() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        func login(_ user: String, _ password: String) async throws -> RunResult {
            try await run(fx.publicClient("login-devise") + cache.flags
                          + ["--scope", "openid", "--form", "user[email]=\(user)@fixture.test", "--form", "user[password]=@-"], stdin: password)
        }
        let seven = try await login("user7", "pw-7")
        let eight = try await login("user8", "pw-8")
        #expect(BatchTests.subject(expectTokenJSON(seven)) == "user7")
        #expect(BatchTests.subject(expectTokenJSON(eight)) == "user8", "the second user got their own token\n\(eight)")
        #expect(try Self.tokenRequests(fx) == 2)
        let before = try fx.hits().count
        let rotated = try await login("user7", "a password never sent")
        #expect(rotated.exitCode == 0 && rotated.stdout == seven.stdout, "the password proves the identity, it does not choose it\n\(rotated)")
        #expect(try fx.hits().count == before, "a hit makes no request")
        for path in cache.files(".token") + cache.files(".salt") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in ["pw-7", "pw-8", "user7@fixture.test", "user8@fixture.test"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(path)")
            }
        }
    }

    /// `--step` requests whole: logins through a JSON API that differ only
    /// in the step's body mint one token each, each for its user.
    @Test func stepBodyKeysTheEntry() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        func login(_ user: String) async throws -> RunResult {
            let body = #"{"username":"\#(user)","password":"pw-\#(user.dropFirst(4))"}"#
            return try await run(fx.publicClient("json-login") + cache.flags
                                 + ["--scope", "openid", "--step", "POST \(fx.issuer("json-login"))/api/login \(body)"])
        }
        let three = try await login("user3"), four = try await login("user4")
        #expect(BatchTests.subject(expectTokenJSON(three)) == "user3")
        #expect(BatchTests.subject(expectTokenJSON(four)) == "user4", "\(four)")
        #expect(try Self.tokenRequests(fx) == 2)
        #expect(try await login("user3").stdout == three.stdout)
        #expect(try Self.tokenRequests(fx) == 2)
    }

    /// `-H` headers (a tenant, an API gateway's key) choose the token too.
    @Test func headerKeysTheEntry() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        let blue = try await run(fx.publicClient("direct") + cache.flags + ["-H", "X-Tenant: blue"])
        let green = try await run(fx.publicClient("direct") + cache.flags + ["-H", "X-Tenant: green"])
        expectTokenJSON(blue)
        expectTokenJSON(green)
        #expect(try Self.tokenRequests(fx) == 2)
        #expect(try fx.hits(to: "token").map { $0.headers["x-tenant"] } == ["blue", "green"])
        #expect(try await run(fx.publicClient("direct") + cache.flags + ["-H", "X-Tenant: green"]).stdout == green.stdout)
        #expect(try Self.tokenRequests(fx) == 2)
    }

    /// The key is an HMAC under a salt made 0600 in the cache directory:
    /// the same settings in two cache directories get unrelated names.
    @Test func entryNamesDependOnTheSalt() async throws {
        let fx = try await Fixture.make()
        let one = try CacheDir(), two = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + one.flags))
        expectTokenJSON(try await run(fx.publicClient("direct") + two.flags))
        let names = [one.files(".token"), two.files(".token")].map { $0.map { ($0 as NSString).lastPathComponent } }
        #expect(names[0].count == 1 && names[1].count == 1)
        #expect(names[0] != names[1], "the same inputs, another salt: another name")
        for directory in [one.path, two.path] {
            let salt = directory + "/cache-key.salt"
            let attributes = try FileManager.default.attributesOfItem(atPath: salt)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            #expect(attributes[.size] as? Int == 32)
        }
    }

    /// A salt others can read would let them test guesses against the
    /// names: refused before any request.
    @Test func readableSaltIsRefused() async throws {
        let fx = try await Fixture.make()
        let cache = try CacheDir()
        expectTokenJSON(try await run(fx.publicClient("direct") + cache.flags))
        #expect(chmod(cache.path + "/cache-key.salt", 0o640) == 0)
        let before = try fx.hits().count
        let result = try await run(fx.publicClient("direct") + cache.flags)
        expectFailure(result, exit: 2, ["the cache key salt '\(cache.path)/cache-key.salt' can be read or written by group or others (mode 640)"])
        #expect(try fx.hits().count == before)
    }
}
