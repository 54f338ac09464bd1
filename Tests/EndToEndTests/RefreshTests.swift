import Foundation
import Testing

/// Interstitial pages that move on by `<meta http-equiv="refresh">`, and the
/// answer itself delivered that way: read from the URL, never fetched.
@Suite("Refresh pages")
struct RefreshTests {
    @Test func interstitialPageIsFollowed() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("meta-refresh") + ["-v"])
        expectTokenJSON(result)
        #expect(result.stderr.contains("following the page's refresh"), "\(result)")
        #expect(try fx.hits(to: "continue").count == 1)
    }

    @Test func answerByRefreshIsNotFetched() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("refresh-answer", redirect: fx.issuer("refresh-answer") + "/cb"))
        expectTokenJSON(result)
        #expect(try fx.hits(to: "cb").isEmpty, "the redirect_uri must never be fetched")
        expectNoSecrets(in: result, fixture: fx)
    }
}
