import Foundation
import Testing

/// Issue 22 item 4: each hint points the way that helps in its case, and
/// never names an option that would not (https to a plain-http port is never `--cert`;
/// a shared sticky directory is never `chmod`ed). The invalid_client hints
/// run in-process (RunTests/ClientAuthRunTests).
@Suite("Hints that point the right way")
struct HintDirectionTests {
    /// Every option a hint names.
    static func options(in text: String) -> Set<String> {
        Set(text.split(whereSeparator: { !($0.isLetter || $0 == "-" || $0.isNumber) }).map(String.init).filter { $0.hasPrefix("--") })
    }

    // MARK: https to a plain-http port

    @Test func httpsToAPlainHTTPPortAsksWhetherItIsPlainHTTP() async throws {
        let fx = try await Fixture.make()
        let plain = fx.issuer("direct")
        let https = "https://" + plain.dropFirst("http://".count)
        let result = try await run(["--authorize-url", https + "/authorize", "--token-url", https + "/token",
                                    "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 3, [])
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.hasPrefix("authcode: error: TLS failed: ") == true && lines.first?.hasSuffix(" (\(https)/authorize)") == true, "\(result)")
        let authority = URL(string: plain)!.host! + ":" + String(URL(string: plain)!.port!)
        #expect(lines.last == "The server answered in plain http, not TLS: is this port plain http? Try http://\(authority)/t/\(fx.run)/direct/authorize.", "\(result)")
        #expect(!result.stderr.contains("--cert") && !result.stderr.contains("--key"), "\(result)")
    }

    // MARK: a shared sticky directory as --cache-dir

    @Test(arguments: [(0o1777, true), (0o777, false)])
    func cacheDirHintNeverChangesASharedDirectory(_ mode: Int, _ sticky: Bool) async throws {
        let fx = try await Fixture.make()
        let root = NSTemporaryDirectory() + "authcode-shared-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(chmod(root, mode_t(mode)) == 0)
        let result = try await run(fx.publicClient("direct") + ["--cache", "--cache-dir", root])
        expectFailure(result, exit: 2, [])
        let shown = String(mode, radix: 8)
        let hint = sticky ? "Pass --cache-dir with a private directory instead, e.g. --cache-dir \"$HOME/.cache/authcode\"."
            : "chmod go-w '\(root)', or pass --cache-dir with a directory of mode 0700."
        #expect(result.stderr == "authcode: error: the cache directory '\(root)' can be written by group or others (mode \(shown)); refusing to keep tokens there\n\(hint)\n",
                "\(result)")
        #expect(try fx.hits().isEmpty)
    }

    // MARK: discovery

    @Test func issuerWithATrailingSlashNamesTheServersSpelling() async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer("discovery")
        let result = try await run(["--issuer", issuer + "/", "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 5, [])
        #expect(result.stderr == "authcode: error: the discovery document is for issuer '\(issuer)', not '\(issuer)/' (\(issuer)/.well-known/openid-configuration)\n"
            + "The two differ only by a trailing slash; pass --issuer exactly as the server names itself: --issuer '\(issuer)'.\n", "\(result)")
        #expect(try fx.hits(to: "authorize").isEmpty)
    }

    @Test func otherIssuerHasNoSlashHint() async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer("discovery-wrong-issuer")
        let result = try await run(["--issuer", issuer, "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 5, [])
        #expect(result.stderr == "authcode: error: the discovery document is for issuer 'https://other.example', not '\(issuer)' (\(issuer)/.well-known/openid-configuration)\n", "\(result)")
    }

    @Test func noDiscoveryDocumentIsExit8WithBothWaysOut() async throws {
        let fx = try await Fixture.make()
        let issuer = fx.issuer("direct")
        let result = try await run(["--issuer", issuer, "--client-id", "public-app", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 8, [])
        #expect(result.stderr == "authcode: error: no discovery document for this issuer (3 well-known URLs tried, the last answered 404) (\(issuer))\n"
            + "Check --issuer (-v shows the URLs tried), or give --authorize-url and --token-url instead.\n", "\(result)")
    }
}
