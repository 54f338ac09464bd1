import Foundation
import Testing

/// Issue 22 item 3: an HTML error page is quoted by what it says — its
/// alert, else its <main> or first heading and the element after it —
/// with every character reference decoded, never its header, navigation
/// or footer (Fixtures/server/error_pages.py).
@Suite("Server pages quoted by their main text")
struct PageQuoteTests {
    /// The POST→GET fallback's note says it in a few words; the page text
    /// is the error line's alone (issue 22 item 2).
    static let note = "authcode: note: the POST authorization request led nowhere; sending it again as GET without the --form values (--method GET goes there directly)\n"

    @Test(arguments: [
        ("error-page-heading", "Something went wrong The client ‘demo’ is not allowed here — ask your administrator."),
        ("error-page-alert", "Your account is locked & needs an administrator."),
        ("error-page-bare", "Bad \"request\" try again"),
    ])
    func errorPageQuotesItsMainText(_ scenario: String, _ quoted: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario))
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == Self.note + "authcode: error: unexpected 400 answer: \(quoted) (\(fx.issuer(scenario))/authorize)\n", "\(result)")
    }

    /// The fixture's own frame: header, nav with a search form, <main>, footer.
    @Test func siteFrameAroundAnUnknownClient() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.endpoints("direct") + ["--client-id", "nobody", "--redirect-uri", Fixture.redirect])
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == Self.note + "authcode: error: unexpected 400 answer: Error unknown client (\(fx.issuer("direct"))/authorize)\n", "\(result)")
    }
}
