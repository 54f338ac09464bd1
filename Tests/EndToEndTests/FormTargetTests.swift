import Foundation
import Testing

/// Forms as a browser resolves them (README "How the walk works", step 3; Walk/FormTarget.swift):
/// the action through the URL Standard's parser, against the page's
/// `<base href>`, the pressed button's `formaction`/`formmethod` first; the
/// trusted-origin rule then decides. Fixtures/server/form_targets.py: each
/// wrong reading posts the password somewhere else, or into a URL.
@Suite("Forms as a browser resolves them")
struct FormTargetTests {
    static let login = ["--form", "username=alice", "--form", "password=@-"]
    static let password = "wonderland\n"

    /// `(METHOD last-segment)` of each hit that holds the password anywhere.
    static func carriers(_ hits: [Hit]) -> [String] {
        hits.filter(ProxyProviderTests.holdsPassword).map { "\($0.method) \($0.path.split(separator: "/").suffix(2).joined(separator: "/"))" }
    }

    @Test func aNewlineInsideTheActionIsRemoved() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("form-action-newline") + Self.login, stdin: Self.password)
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(Self.carriers(hits) == ["POST form-action-newline/login"], "\(hits)")
        #expect(!hits.contains { $0.method == "POST" && $0.endpoint == "page" }, "nothing re-posted to the page")
    }

    @Test func theActionResolvesAgainstBaseHref() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("form-base-href") + Self.login, stdin: Self.password)
        expectTokenJSON(result)
        #expect(Self.carriers(try fx.hits()) == ["POST sub/login"])
    }

    /// A `<base href>` on another origin sends the form there: the
    /// trusted-origin rule refuses it (exit 6) unless the user trusts it.
    @Test func aBaseOnAnotherOriginIsForTheTrustedOriginRule() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let refused = try await run(fx.publicClient("form-base-origin") + Self.login + ["-q"], stdin: Self.password)
        #expect(refused.exitCode == 6, "\(refused)")
        #expect(refused.errorLine == "authcode: error: refusing to send the filled-in form (--form values) to \(other), which is not a trusted origin (\(other)/t/\(fx.run)/form-base-origin/sub/login)", "\(refused)")
        #expect(Self.carriers(try fx.hits()).isEmpty)

        let trusted = try await run(fx.publicClient("form-base-origin") + Self.login + ["--trust-origin", other], stdin: Self.password)
        expectTokenJSON(trusted)
        let carriers = try fx.hits().filter(ProxyProviderTests.holdsPassword)
        #expect(carriers.map { "\($0.method) \($0.listener)" } == ["POST \(Fixture.listener(other))"])
    }

    /// The pressed button's formaction and formmethod win: a POST to
    /// `login`, never the form's GET that would put the password in a URL.
    @Test func thePressedButtonsFormactionAndFormmethodWin() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("form-formaction") + Self.login, stdin: Self.password)
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(Self.carriers(hits) == ["POST form-formaction/login"], "\(hits)")
        #expect(!hits.contains { $0.endpoint == "wrong" })
    }
}
