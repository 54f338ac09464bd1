import Foundation
import Testing

/// DPoP nonces and unbound tokens (README "DPoP-bound tokens, and curl (RFC 9449)"): a `DPoP-Nonce` outside
/// RFC 9449 §8.1's grammar (1*NQCHAR) or over 1 KiB is exit 8 and never
/// echoed into a proof or a line (OAuth/DPoPNonceChallenge.swift); a
/// Bearer answer to a DPoP request is taken with one warning
/// (Flow/TokenBinding.swift), not with -q. Against the fixture's `signed`
/// scenario with `dpop_nonce` and `dpop_nonce_fault`.
@Suite("Modern profile: DPoP nonces and unbound tokens")
struct DPoPNonceTests {
    static let unbound = "authcode: warning: the token is not DPoP-bound (token_type Bearer): the server answered the DPoP request with a bearer token"

    @Test(arguments: [("space", "not 1*NQCHAR (RFC 9449 §8.1)"), ("quote", "not 1*NQCHAR (RFC 9449 §8.1)"),
                      ("backslash", "not 1*NQCHAR (RFC 9449 §8.1)"), ("huge", "longer than 1024 bytes")])
    func aNonceOutsideTheGrammarIsExit8(fault: String, why: String) async throws {
        let fixture = try await Fixture.make("nonce-\(fault)")
        try fixture.configure(["dpop_nonce": ["token"], "dpop_nonce_fault": fault])
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop"])
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the answer's DPoP-Nonce is \(why); not sending it back (\(fixture.issuer("signed"))/token)\n",
                "\(result)")
        let token = try fixture.profileHits(to: "token")
        #expect(token.count == 1, "no second proof carries the nonce: \(token.map(\.hit))")
        #expect(token.allSatisfy { $0.proofClaims["nonce"] == nil })
    }

    /// The same at PAR: the nonce learnt there is never put into the token request's proof.
    @Test func atPARToo() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["dpop_nonce": ["par"], "dpop_nonce_fault": "space"])
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "--par"])
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.errorLine == "authcode: error: the answer's DPoP-Nonce is not 1*NQCHAR (RFC 9449 §8.1); not sending it back (\(fixture.issuer("signed"))/par)",
                "\(result)")
        #expect(try fixture.profileHits().allSatisfy { $0.proofClaims["nonce"] == nil })
    }

    @Test func aBearerAnswerIsTakenWithOneWarning() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["token_type": "Bearer"])
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop"])
        #expect(expectTokenJSON(result)["token_type"] as? String == "Bearer")
        #expect(result.stderr == Self.unbound + "\n", "\(result)")
        let quiet = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "-q"])
        expectTokenJSON(quiet)
        #expect(quiet.stderr.isEmpty, "-q: nothing on stderr\n\(quiet)")
    }

    /// A batch says it once, not once per record.
    @Test func aBatchWarnsOnce() async throws {
        let fixture = try await Fixture.make()
        try fixture.configure(["token_type": "Bearer"])
        let users = try TempFile("username\nuser1\nuser2\nuser3\n")
        let result = try await run(fixture.profileFlow(client: "public-app") + ["--dpop", "--users", users.path, "--parallel", "2"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 3)
        // Whichever record came first says it, with its line.
        let said = (1...3).map { Self.unbound.replacingOccurrences(of: "warning: ", with: "warning: line \($0): ") + "\n" }
        #expect(said.contains(result.stderr), "\(result)")
    }
}
