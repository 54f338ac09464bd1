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
}
