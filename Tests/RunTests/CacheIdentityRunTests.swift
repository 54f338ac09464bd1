import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// The cache key covers every input that chooses which token is minted or
/// for whom (README.md "Token cache"): two logins that differ in a field of
/// any name, a `--step` body or a header never share an entry — the second
/// user never gets the first one's token — while a rotated password still
/// finds its entry. Each test counts the token requests the server saw.
/// Moved from EndToEndTests/CacheIdentityTests.
struct CacheIdentityRunTests {
    /// The sub of the id_token a run printed.
    static func subject(_ ran: Ran) -> String? {
        (ran.json?["id_token"] as? String).flatMap(claims)?["sub"] as? String
    }

    /// Logins that differ only in a `user[email]` field (not a name any
    /// allow-list of identity fields knows): two token requests.
    @Test func oddlyNamedFieldKeysTheEntry() {
        let server = ScriptedServer()
        let cache = CacheDir()
        let first = authcode(server.publicClient() + cache.flags + ["--form", "user[email]=blue@fixture.test"], server: server)
        let a = expectToken(first, from: server)
        let second = authcode(server.publicClient() + cache.flags + ["--form", "user[email]=green@fixture.test"], server: server)
        let b = expectToken(second, from: server)
        #expect(server.requests(to: "/token").count == 2, "each login minted its own token")
        #expect(a["access_token"] as? String != b["access_token"] as? String)
        #expect(cache.files(".token").count == 2)
        // Each login again: a hit, no request.
        let again = authcode(server.publicClient() + cache.flags + ["--form", "user[email]=blue@fixture.test"], server: server)
        #expect(again.out == first.out)
        #expect(server.requests(to: "/token").count == 2)
    }

    /// A Rails/Devise login page (Fixtures/server/field_names.py): `user[email]`
    /// and `user[password]`, a hidden `authenticity_token`, a `commit`
    /// button; the user is the e-mail's local part.
    static func devise() -> ScriptedServer {
        let server = ScriptedServer()
        server.on("/authorize") { $1.startLogin($0) }
        server.on("/login") { exchange, server in
            guard let txn = exchange.query["txn"], let pending = server.parked(exchange) else { return ScriptedServer.unknownTransaction }
            let form = exchange.form
            let user = form["user[email]"].map { String($0.prefix { $0 != "@" }) }
            if exchange.method == "POST", ScriptedServer.checkUser(user, form["user[password]"]), let user {
                _ = server.parked(exchange, pop: true)
                return server.answerCode(pending, user: user)
            }
            let alert = exchange.method == "POST" ? #"<p class="alert">Invalid Email or password.</p>"# : ""
            return .html(Page.frame("Log in", alert + """
                <form class="new_user" id="new_user" action="login?txn=\(txn)" accept-charset="UTF-8" method="post">
                  <input type="hidden" name="authenticity_token" value="scripted-authenticity-token" autocomplete="off">
                  <input autofocus="autofocus" autocomplete="email" type="email" value="" name="user[email]" id="user_email">
                  <input autocomplete="current-password" type="password" name="user[password]" id="user_password">
                  <input name="user[remember_me]" type="hidden" value="0"><input type="checkbox" value="1" name="user[remember_me]">
                  <input type="submit" name="commit" value="Log in" data-disable-with="Log in">
                </form>
                """))
        }
        return server
    }

    /// Each Devise user gets a token for themselves; a changed password
    /// alone still hits.
    @Test func deviseUsersGetTheirOwnTokensAndARotatedPasswordStillHits() throws {
        let server = Self.devise()
        let cache = CacheDir()
        func login(_ user: String, _ password: String) -> Ran {
            authcode(server.publicClient() + cache.flags + ["--scope", "openid", "--form", "user[email]=\(user)@fixture.test", "--form", "user[password]=@-"],
                     stdin: password, server: server)
        }
        let seven = login("user7", "pw-7")
        let eight = login("user8", "pw-8")
        expectToken(eight, from: server)
        #expect(Self.subject(seven) == "user7", "\(seven)")
        #expect(Self.subject(eight) == "user8", "the second user got their own token\n\(eight)")
        #expect(server.requests(to: "/token").count == 2)
        let before = server.requests.count
        let rotated = login("user7", "a password never sent")
        #expect(rotated.exit == .success && rotated.out == seven.out, "the password proves the identity, it does not choose it\n\(rotated)")
        #expect(server.requests.count == before, "a hit makes no request")
        for path in cache.files(".token") + cache.files(".salt") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in ["pw-7", "pw-8", "user7@fixture.test", "user8@fixture.test"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(path)")
            }
        }
    }

    /// `--step` requests whole: logins through a JSON API that differ only
    /// in the step's body mint one token each, each for its user.
    @Test func stepBodyKeysTheEntry() {
        let server = ScriptedServer(.jsonLogin)
        let cache = CacheDir()
        func login(_ user: String) -> Ran {
            let body = #"{"username":"\#(user)","password":"pw-\#(user.dropFirst(4))"}"#
            return authcode(server.publicClient() + cache.flags + ["--scope", "openid", "--step", "POST \(server.url("/api/login")) \(body)"], server: server)
        }
        let three = login("user3"), four = login("user4")
        #expect(Self.subject(three) == "user3", "\(three)")
        #expect(Self.subject(four) == "user4", "\(four)")
        #expect(server.requests(to: "/token").count == 2)
        #expect(login("user3").out == three.out)
        #expect(server.requests(to: "/token").count == 2)
    }

    /// `-H` headers (a tenant, an API gateway's key) choose the token too.
    @Test func headerKeysTheEntry() {
        let server = ScriptedServer()
        let cache = CacheDir()
        let blue = authcode(server.publicClient() + cache.flags + ["-H", "X-Tenant: blue"], server: server)
        expectToken(blue, from: server)
        let green = authcode(server.publicClient() + cache.flags + ["-H", "X-Tenant: green"], server: server)
        expectToken(green, from: server)
        #expect(server.requests(to: "/token").map { $0.header("X-Tenant") } == ["blue", "green"])
        #expect(authcode(server.publicClient() + cache.flags + ["-H", "X-Tenant: green"], server: server).out == green.out)
        #expect(server.requests(to: "/token").count == 2)
    }

    /// The key is an HMAC under a salt made 0600 in the cache directory:
    /// the same settings in two cache directories get unrelated names.
    @Test func entryNamesDependOnTheSalt() throws {
        let server = ScriptedServer()
        let one = CacheDir(), two = CacheDir()
        expectToken(authcode(server.publicClient() + one.flags, server: server), from: server)
        expectToken(authcode(server.publicClient() + two.flags, server: server), from: server)
        let names = [one.files(".token"), two.files(".token")].map { $0.map { ($0 as NSString).lastPathComponent } }
        #expect(names[0].count == 1 && names[1].count == 1)
        #expect(names[0] != names[1], "the same inputs, another salt: another name")
        for directory in [one.path, two.path] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/cache-key.salt")
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            #expect(attributes[.size] as? Int == 32)
        }
    }

    /// A salt others can read would let them test guesses against the
    /// names: refused before any request.
    @Test func readableSaltIsRefused() {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        #expect(chmod(cache.path + "/cache-key.salt", 0o640) == 0)
        let before = server.requests.count
        let ran = authcode(server.publicClient() + cache.flags, server: server)
        #expect(ran.exit == .usage && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine?.hasPrefix("authcode: error: the cache key salt '\(cache.path)/cache-key.salt' can be read or written by group or others (mode 640)") == true,
                "\(ran)")
        #expect(server.requests.count == before)
    }
}
