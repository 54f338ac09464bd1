import Foundation
import Testing

/// RFC 9112 §5.2: an obs-fold line continues the field before it, never
/// starts one; with no field before it the response is malformed (exit 8).
/// HTTP/CurlTransport.swift (CurlExchange); Fixtures/server/folding.py.
@Suite("Folded header lines")
struct HeaderFoldingTests {
    /// ` Location: …/evil` after `X-Trace: a1` is part of X-Trace: the one
    /// Location is `next`, which leads to the code.
    @Test func foldedLocationIsNotALocation() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("fold-location") + ["-v"])
        expectTokenJSON(result)
        #expect(try fx.hits().map(\.endpoint) == ["authorize", "next", "token"], "evil never fetched")
        #expect(result.stderr.contains("< Location: \(fx.issuer("fold-location"))/next?txn="), "\(result)")
        #expect(!result.stderr.contains("/evil"), "\(result)")
    }

    /// `<TAB>Set-Cookie: evil=1` after `X-Trace: a1` sets no cookie: `next`
    /// gets `good=1` alone.
    @Test func foldedSetCookieSetsNoCookie() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("fold-cookie"))
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(hits.map(\.endpoint) == ["authorize", "next", "token"])
        #expect(hits.first { $0.endpoint == "next" }?.headers["cookie"] == "good=1", "\(hits)")
    }

    /// A fold right after the status line continues nothing: exit 8, and
    /// neither Location is followed.
    @Test func foldWithNothingBeforeItIsMalformed() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("fold-first"))
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authcode: error: the response's header section is malformed: a folded line with no field before it, or a line that is no field (RFC 9112 §5) (\(fx.issuer("fold-first"))/authorize)\n", "\(result)")
        #expect(try fx.hits().map(\.endpoint) == ["authorize"], "nothing followed")
    }
}
