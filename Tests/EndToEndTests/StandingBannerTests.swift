import Foundation
import Testing

/// "login rejected: …" gives the alert that was not on the login page before
/// the credentials were sent (README.md "Login errors"): a page's standing
/// banners — JupyterHub's "unsecured HTTP connection" warning, a maintenance
/// notice — are context, not the error. When nothing is new, the usual
/// rules pick the text, so a message shown on both pages is still reported.
@Suite("Login errors beside standing banners")
struct StandingBannerTests {
    @Test(arguments: [
        ("login-error-jupyterhub", "Invalid username or password"),
        ("login-error-banner-role-alert", "Invalid username or password."),
        ("login-error-class-only", "Invalid username or password."),
        ("login-error-same-text", "Invalid username or password."),
    ])
    func theNewAlertIsTheError(_ scenario: String, _ text: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--form", "username=alice", "--form", "password=@-"], stdin: "not-alice")
        expectFailure(result, exit: 6, [])
        #expect(result.errorLine == "authcode: error: login rejected: \(text) (\(fx.issuer(scenario))/login)", "\(result)")
        #expect(try fx.hits(to: "login").map(\.method) == ["GET", "POST"], "one login page, one wrong password")
        expectNoSecrets(in: result, fixture: fx, extra: ["not-alice"])
    }

    /// The banners do not get in the way of a right password.
    @Test(arguments: ["login-error-jupyterhub", "login-error-banner-role-alert", "login-error-class-only", "login-error-same-text"])
    func rightPasswordStillLogsIn(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        expectTokenJSON(try await run(fx.publicClient(scenario) + ["--form", "username=alice", "--form", "password=@-"], stdin: "wonderland"))
    }
}
