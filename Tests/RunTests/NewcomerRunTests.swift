import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Issue 31 ("a newcomer's first hour, round 2"): the messages and defaults
/// a new user met, each as the exact line and exit code.
struct NewcomerRunTests {
    /// Item 5: `--print claims` without openid mints nothing: exit 2 before
    /// any request, hinting openid.
    @Test(arguments: [(["--scope", "profile email"], "openid profile email"), ([], "openid profile")])
    func printClaimsWithoutOpenIDIsRefusedFirst(scope: [String], suggested: String) {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + scope + ["--print", "claims"], server: server)
        expectFailure(ran, .usage, "authcode: error: '--print claims' prints the id_token's claims, and without openid in '--scope <scopes>' "
                      + "the server issues no id_token\nAdd openid to --scope, e.g. --scope \"\(suggested)\".\n")
        #expect(ran.requests.isEmpty)
    }

    /// Item 9: claims whose signature no key could check say so on stderr,
    /// once, and not with -q; the claims are printed all the same.
    @Test func claimsWithoutKeysSayTheSignatureWasNotChecked() throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--scope", "openid", "--print", "claims"], server: server)
        #expect(ran.exit == .success, "\(ran)")
        #expect(jsonObject(ran.out)?["sub"] as? String == "alice", "\(ran)")
        #expect(ran.err == "authcode: warning: the id_token's signature was not checked: no keys are known (give --issuer with a jwks_uri, "
                + "or --jwks); these claims are as the token endpoint sent them\n")
        let quiet = authcode(server.publicClient() + ["--scope", "openid", "--print", "claims", "-q"], server: server)
        #expect(quiet.exit == .success && quiet.err.isEmpty, "\(quiet)")
        let json = authcode(server.publicClient() + ["--scope", "openid"], server: server)
        #expect(json.err.isEmpty, "only --print claims calls the payload verified\n\(json)")
    }

    /// Item 12: `--forget -v` says whether there was an entry to remove.
    @Test func forgetSaysWhenThereWasNothingToRemove() {
        let server = ScriptedServer()
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags, server: server), from: server)
        let first = authcode(server.publicClient() + ["--forget", "--cache-dir", cache.path, "-v"], server: server)
        let second = authcode(server.publicClient() + ["--forget", "--cache-dir", cache.path, "-v"], server: server)
        #expect(first.exit == .success && second.exit == .success)
        #expect(first.err.split(separator: "\n").last == "* cache entry for these settings removed", "\(first)")
        #expect(second.err.split(separator: "\n").last == "* no cache entry for these settings: nothing to remove", "\(second)")
    }

    /// Item 6: the discovery document's own URL, as many docs show it, is
    /// taken as the issuer it names (OIDC Discovery §4, RFC 8414 §3).
    @Test(arguments: ["/.well-known/openid-configuration", "RFC8414"])
    func discoveryURLIsTakenAsItsIssuer(_ form: String) {
        let server = ScriptedServer()
        server.serveDiscovery()
        let given = form == "RFC8414" ? server.url("/.well-known/oauth-authorization-server/tenant") : server.issuer + form
        let ran = authcode(["--issuer", given, "--client-id", "public-app", "--redirect-uri", ScriptedServer.redirect], server: server)
        expectToken(ran, from: server)
        #expect(ran.sent.first == "GET /tenant/.well-known/openid-configuration", "\(ran.sent)")
        #expect(ran.err.isEmpty, "\(ran)")
    }

    /// Item 7: "did you mean" picks the nearest of the names a prefix
    /// begins, and a long option with one dash is read as one.
    @Test(arguments: [
        (["--user", "x"], "unknown option '--user'", "--users"),
        (["-client-id", "x"], "unknown option '-client-id'", "--client-id"),
        (["-issuer=https://as.example"], "unknown option '-issuer'", "--issuer"),
    ])
    func didYouMean(_ arguments: [String], _ message: String, _ suggestion: String) {
        let ran = authcode(arguments)
        expectFailure(ran, .usage, "authcode: error: \(message)\nDid you mean '\(suggestion)'? See 'authcode --help'.\n")
    }

    /// Item 10: a page that says the redirect URI is wrong gets the
    /// `--redirect-uri` hint (django-oauth-toolkit's 400 page, Keycloak's).
    @Test(arguments: ["<h2>Error: invalid_request</h2><p>Mismatching redirect URI.</p>", "<p>Invalid parameter: redirect_uri</p>"])
    func aRedirectURIPageGetsTheHint(_ page: String) {
        let server = ScriptedServer()
        server.on("/authorize") { _, _ in .html("<html><body>\(page)</body></html>", status: 400) }
        let ran = authcode(server.publicClient(), server: server)
        #expect(ran.exit == .noAuthorizationResponse, "\(ran)")
        #expect(ran.err.hasSuffix("\nCheck --redirect-uri against the client's registration (scheme, host, port and path must match).\n"), "\(ran)")
    }

    /// Item 10: `@~/pw.txt` after `=` is not expanded by the shell: said so,
    /// with the way out.
    @Test func aTildeAfterTheEqualsSignIsNamed() {
        let ran = authcode(ScriptedServer().publicClient() + ["--form", "password=@~/no-such-authcode-pw.txt"])
        expectFailure(ran, .usage, "authcode: error: cannot read '~/no-such-authcode-pw.txt' for '--form password': no such file (the shell does not expand ~ there)\n"
                      + "Write it @\"$HOME/no-such-authcode-pw.txt\": the shell expands ~ only at the start of a word.\n")
    }

    static let p256JWK = #"{"kty":"EC","crv":"P-256","x":"FbjbEjxryk5zgKBE1SGGDg1AuJBJnG8bIc_WaGXzCnM","y":"FDWzF6yNojmhp5tMjBD5PmTwGhjsjBGz2cBYs5US-VA","kid":"p256","d":"L8_4ktrQSlTyYzE_Fo0XMS0E-x7pqpgFedKMwFNSouw"}"#
    static let ed25519JWK = #"{"kty":"OKP","crv":"Ed25519","x":"zaB3dsfbv4WysBClA4d9yizcKFLMXuAdPjHeqkv5rlc","kid":"ed25519","d":"mUCN-rSsQ5KuHu0UXCs2QWLvDhRyxUa-ut00JTc5qM8"}"#

    /// Item 13 (README "A client key (private_key_jwt, RFC 7523)"): a JWK Set of one key is that key, and the
    /// assertion's header kid is `--client-key-id`; in a set of several the
    /// kid chooses, and an error names the kids the set has.
    @Test func aKeySetOfOneKeyIsThatKey() throws {
        let one = try TempFile(#"{"keys":[\#(Self.p256JWK)]}"#, mode: 0o600)
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--client-key", one.path, "--client-key-id", "my-kid"], server: server)
        #expect(ran.exit == .success, "\(ran)")
        let assertion = try #require(server.requests(to: "/token").last?.form["client_assertion"], "\(ran)")
        let header = try #require(jsonObject(String(decoding: Base64URL.decode(assertion.split(separator: ".")[0]) ?? [], as: UTF8.self)))
        #expect(header["kid"] as? String == "my-kid" && header["alg"] as? String == "ES256")

        let two = try TempFile(#"{"keys":[\#(Self.p256JWK),\#(Self.ed25519JWK)]}"#, mode: 0o600)
        let wrong = authcode(server.publicClient() + ["--client-key", two.path, "--client-key-id", "my-kid"], server: server)
        expectFailure(wrong, .usage, "authcode: error: cannot use '\(two.path)' for '--client-key': no private key of the key set has kid 'my-kid' "
                      + "(the set's kids: p256, ed25519)\nChoose one of the set's keys by its kid with --client-key-id.\n")
        let none = authcode(server.publicClient() + ["--client-key", two.path], server: server)
        expectFailure(none, .usage, "authcode: error: cannot use '\(two.path)' for '--client-key': the key set holds several private keys; name one by its kid "
                      + "(the set's kids: p256, ed25519)\nChoose one of the set's keys by its kid with --client-key-id.\n")
        let chosen = authcode(server.publicClient() + ["--client-key", two.path, "--client-key-id", "ed25519"], server: server)
        #expect(chosen.exit == .success, "\(chosen)")
    }

    /// Item 2: a stale entry whose refresh is refused, then a login that
    /// fails too (the CI step expected a cache hit; the password rotated):
    /// the error line says both, without -v.
    @Test func aRefusedRefreshThenAFailedLoginSaysBoth() {
        let server = ScriptedServer(.loginAndConsent)
        let cache = CacheDir()
        expectToken(authcode(server.publicClient() + cache.flags + ["--form", "username=alice", "--form", "password=@-"], stdin: "wonderland\n",
                             server: server), from: server)
        server.revokeRefreshTokens()
        let ran = authcode(server.publicClient() + cache.flags + ["--min-ttl", "7200", "--form", "username=alice", "--form", "password=@-"],
                           stdin: "rotated\n", server: server)
        expectFailure(ran, .noAuthorizationResponse, "authcode: error: the cached token's refresh was refused (invalid_grant), and logging in again failed: "
                      + "login rejected: Invalid username or password. (\(server.url("/login")))\n" + LoginRunTests.rejectedHint)
    }

    /// Item 8: one rule for every literal secret on the command line, the
    /// config files' rule: a `-H` header named like a secret, a `--step`
    /// body holding a password, a `--param` secret — each earns the hint;
    /// the same given as @FILE or in a config file does not.
    @Test(arguments: [
        (["-H", "Authorization: Bearer abc123"],
         "authcode: hint: a secret header (Authorization) on the command line shows in 'ps' and shell history; use '-H @FILE' (a file holding the whole header line) or AUTHCODE_HEADER"),
        (["-H", "X-Api-Token: abc123"],
         "authcode: hint: a secret header (X-Api-Token) on the command line shows in 'ps' and shell history; use '-H @FILE' (a file holding the whole header line) or AUTHCODE_HEADER"),
        (["--step", #"POST https://as.example/api/login {"username":"alice","password":"wonderland"}"#],
         "authcode: hint: a '--step' body holding a password on the command line shows in 'ps' and shell history; use '--step \"POST https://as.example/api/login @FILE\"' (the body from a file)"),
        (["--param", "client_secret=abc123"],
         "authcode: hint: a secret '--param' value on the command line shows in 'ps' and shell history; use '--param client_secret=@FILE'"),
        (["--client-secret", "abc123"],
         "authcode: hint: a client secret on the command line shows in 'ps' and shell history; use '--client-secret @FILE' or AUTHCODE_CLIENT_SECRET"),
    ])
    func literalSecretsEarnTheHint(_ extra: [String], _ hint: String) throws {
        // --print code: no token request, so each run's stderr is the hint alone.
        let server = ScriptedServer(.jsonLogin)
        let ran = authcode(server.publicClient() + extra + ["--print", "code"], server: server)
        #expect(ran.err.hasPrefix(hint + "\n"), "\(ran)")
        #expect(ran.err.components(separatedBy: "authcode: hint:").count == 2, "one hint\n\(ran)")
        let file = try TempFile(extra[1])
        let fromFile = authcode(server.publicClient() + [extra[0], "@" + file.path, "--print", "code"], server: server)
        #expect(!fromFile.err.contains("authcode: hint:"), "\(fromFile)")
        let config = try TempFile("\(extra[0] == "-H" ? "header" : String(extra[0].dropFirst(2))) = \"\(extra[1].replacingOccurrences(of: "\"", with: "\\\""))\"\n")
        let fromConfig = authcode(server.publicClient() + ["-K", config.path, "--print", "code"], server: server)
        #expect(!fromConfig.err.contains("authcode: hint:"), "\(fromConfig)")
    }
}
