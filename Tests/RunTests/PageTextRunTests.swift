import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// What an error line quotes from a page (README.md "Login errors"): an
/// HTML error page by what it says — its alert, else its <main> or first
/// heading and the element after it, character references decoded, never
/// its header, navigation or footer; and after a wrong password, the alert
/// that was not on the login page before (a standing banner is context,
/// not the error). Moved from EndToEndTests/PageQuoteTests and
/// StandingBannerTests; the pages are written after the fixture's
/// (Fixtures/server/error_pages.py, standing_banners.py).
struct PageTextRunTests {
    /// The POST→GET fallback's note is -v's alone (issue 31 item 3): the
    /// page text is the error line's.
    static let note = ""
    static let header = """
        <header><a href="/">Example&nbsp;Corp</a>
        <nav><a href="/help">Help</a> | <a href="/status">Status</a></nav></header>
        """

    @Test(arguments: [
        ("""
         <!DOCTYPE html><html><head><title>Oops &ndash; Example</title></head><body>
         \(header)
         <div class="content"><h1>Something went wrong</h1>
         <p>The client &lsquo;demo&rsquo; is not allowed here &#8212; ask your administrator.</p>
         <p>Request id 42.</p></div>
         <footer>&copy; Example Corp</footer></body></html>
         """, "Something went wrong The client ‘demo’ is not allowed here — ask your administrator."),
        ("""
         <!DOCTYPE html><html><head><title>Error</title></head><body>
         \(header)
         <main><h2>Sign-in problem</h2><p>We could not sign you in.</p>
         <div class="notice" role="alert">Your account is locked &amp; needs an administrator.</div></main>
         <footer>&copy; Example Corp</footer></body></html>
         """, "Your account is locked & needs an administrator."),
        ("<html><body><p>Bad &quot;request&quot;</p> <p>try again</p></body></html>", "Bad \"request\" try again"),
    ])
    func errorPageQuotesItsMainText(_ page: String, _ quoted: String) {
        let server = ScriptedServer()
        server.on("/authorize") { _, _ in .html(page, status: 400) }
        let ran = authcode(server.publicClient(), server: server)
        expectFailure(ran, .noAuthorizationResponse, Self.note + "authcode: error: unexpected 400 answer: \(quoted) (\(server.authorizeURL))\n")
        #expect(ran.sent == ["POST /authorize", "GET /authorize"])
    }

    /// The site frame (header, nav with a search form, <main>, footer) around an unknown client.
    @Test func siteFrameAroundAnUnknownClient() {
        let server = ScriptedServer()
        let ran = authcode(server.endpoints + ["--client-id", "nobody", "--redirect-uri", ScriptedServer.redirect], server: server)
        expectFailure(ran, .noAuthorizationResponse, Self.note + "authcode: error: unexpected 400 answer: Error unknown client (\(server.authorizeURL))\n")
    }

    // MARK: standing banners

    /// A login page with a banner that is always there; a wrong password
    /// adds the real error in the way `shape` says.
    struct Banner: Sendable, CustomTestStringConvertible {
        let name: String
        /// The page's body given the error (nil on the first visit).
        let page: @Sendable (_ txn: String, _ error: String?) -> String
        let quoted: String
        var testDescription: String { name }
    }

    static let banners: [Banner] = [
        // JupyterHub's login template: a standing `hidden alert alert-warning`
        // paragraph (a script shows it over http), the error in `p.login_error`.
        Banner(name: "jupyterhub", page: { txn, error in
            """
            <!DOCTYPE HTML><html><head><meta charset="utf-8"><title>JupyterHub</title></head><body>
            <div id="login-main" class="container"><form action="login?txn=\(txn)" method="post" role="form">
            <div class="auth-form-header"><h1>Sign in</h1></div>
            <p id='insecure-login-warning' class='hidden alert alert-warning'>
            Warning: JupyterHub seems to be served over an unsecured HTTP connection.
            </p>
            \(error.map { "<p class=\"login_error\">\n\($0)\n</p>" } ?? "")
            <input type="hidden" name="_xsrf" value="2|scripted|xsrf"/>
            <input type="text" name="username"/><input type="password" name="password"/>
            <input type="submit" value='Sign in'/>
            </form></div>
            <script>if (!window.isSecureContext) { document.getElementById("insecure-login-warning").className = "alert"; }</script>
            </body></html>
            """
        }, quoted: "Invalid username or password"),
        // A standing role="alert" notice; the error only in a class.
        Banner(name: "banner with role alert", page: { txn, error in
            Page.login(action: "login", hidden: [("txn", txn)], banner: #"<div class="site-notice" role="alert">Scheduled maintenance: Sunday 02:00-04:00 UTC.</div>"#
                       + (error.map { #"<div class="form-error">\#($0).</div>"# } ?? ""))
        }, quoted: "Invalid username or password."),
        // A standing `alert alert-info`; the error only in a class token.
        Banner(name: "error by class only", page: { txn, error in
            Page.login(action: "login", hidden: [("txn", txn)], banner: #"<div class="alert alert-info">Use your staff account.</div>"#
                       + (error.map { #"<span class="kc-feedback-text">\#($0).</span>"# } ?? ""))
        }, quoted: "Invalid username or password."),
        // The page as first fetched already carries the error (a flash kept
        // from an earlier attempt): nothing new, so the usual rules pick it.
        Banner(name: "the same text before and after", page: { txn, _ in
            Page.login(action: "login", hidden: [("txn", txn)], banner: #"<div class="alert alert-danger" role="alert">Invalid username or password.</div>"#)
        }, quoted: "Invalid username or password."),
    ]

    static func bannerServer(_ banner: Banner) -> ScriptedServer {
        let server = ScriptedServer()
        server.on("/authorize") { $1.startLogin($0) }
        server.on("/login") { exchange, server in
            guard let pending = server.parked(exchange) else { return ScriptedServer.unknownTransaction }
            let txn = pending.txn
            guard exchange.method == "POST" else { return .html(banner.page(txn, nil)) }
            guard ScriptedServer.checkUser(exchange.form["username"], exchange.form["password"]) else {
                return .html(banner.page(txn, "Invalid username or password"))
            }
            return server.answerCode(pending, user: "alice")
        }
        return server
    }

    @Test(arguments: banners)
    func theNewAlertIsTheError(_ banner: Banner) {
        let server = Self.bannerServer(banner)
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@-"], stdin: "not-alice", server: server)
        expectFailure(ran, .noAuthorizationResponse, "authcode: error: login rejected: \(banner.quoted) (\(server.url("/login")))\n"
                      + "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).\n")
        #expect(server.requests(to: "/login").map(\.method) == [.get, .post], "one login page, one wrong password")
        expectNoSecrets(ran, server: server, extra: ["not-alice"])
    }

    /// The banners do not get in the way of a right password.
    @Test(arguments: banners)
    func rightPasswordStillLogsIn(_ banner: Banner) {
        let server = Self.bannerServer(banner)
        expectToken(authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@-"], stdin: "wonderland", server: server), from: server)
    }
}
