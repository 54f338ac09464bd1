import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Issue 31 item 1: a `--form` name that matches no field is named, with
/// the fields the login form had, in a failed run's error line and in `-v`
/// at each form (README "How the walk works", step 3); and the generic `username`/`password`
/// fill any plain login form's identifier and password fields (README "Identity providers").
struct FormNameRunTests {
    static let password = "wonderland"

    /// A login page whose fields are named as a provider names them (Gitea's
    /// `user_name`, AD FS's `Password`…); the right pair gives a code.
    static func providerLogin(user: String, password: String, extra: String = "") -> ScriptedServer {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            if exchange.method == "POST", exchange.form["txn"] != nil {
                guard let pending = server.parked(exchange) else { return .html(Page.message("Error", "Unknown transaction."), status: 400) }
                guard exchange.form[user] == "alice", exchange.form[password] == Self.password else {
                    return .html(Self.page(txn: pending.txn, user: user, password: password, extra: extra, error: "Wrong user name or password."))
                }
                _ = server.parked(exchange, pop: true)
                return server.answerCode(pending, user: "alice")
            }
            guard let pending = server.validate(exchange) else { return server.refusal }
            return .html(Self.page(txn: server.park(pending), user: user, password: password, extra: extra))
        }
        return server
    }

    static func page(txn: String, user: String, password: String, extra: String, error: String? = nil) -> String {
        Page.frame("Sign in", (error.map { #"<p class="error" role="alert">\#($0)</p>"# } ?? "") + """
            <form method="post" action="authorize">
            <input type="hidden" name="txn" value="\(txn)">
            <input type="text" name="q" form="search" placeholder="Search">
            <label>User <input type="text" name="\(user)"></label>\(extra)
            <label>Password <input type="password" name="\(password)"></label>
            <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// The issue's case: `--form user=alice` against a form whose field is
    /// `username`: the rejection says which name matched nothing and what
    /// the form has; the hint says how to name them.
    @Test func anUnmatchedNameIsNamedWithTheFormsFields() throws {
        let server = ScriptedServer(.loginAndConsent)
        let password = try TempFile("wonderland\n")
        let ran = authcode(server.publicClient() + ["--form", "user=alice", "--form", "password=@" + password.path], server: server)
        expectFailure(ran, .noAuthorizationResponse,
                      "authcode: error: login rejected: Invalid username or password.; no field took --form user "
                      + "(the login's fields: username, password, remember) (\(server.url("/login")))\n"
                      + "Give --form the login's own field names (username=…, password=…), or username and password, "
                      + "which fill a login form's identifier and password fields.\n")
        let verbose = authcode(server.publicClient() + ["--form", "user=alice", "--form", "password=@" + password.path, "-v"], server: server)
        #expect(verbose.err.contains("* no field of this form takes --form user (its fields: username, password, remember)\n"), "\(verbose)")
    }

    /// Names that matched are not named; a rejection with every name placed
    /// is the plain one.
    @Test func aRejectionWithEveryNamePlacedIsThePlainOne() throws {
        let server = ScriptedServer(.loginAndConsent)
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@-"], stdin: "nope\n", server: server)
        expectFailure(ran, .noAuthorizationResponse,
                      "authcode: error: login rejected: Invalid username or password. (\(server.url("/login")))\n" + LoginRunTests.rejectedHint)
    }

    /// README "Identity providers" for HTML: `username` and `password` fill the form's one
    /// identifier field and its one password field when it has none of
    /// those names (Zitadel `loginName`, Gitea `user_name`, GitLab
    /// `user[login]`, Dex `login`, AD FS `UserName`/`Password`).
    @Test(arguments: [("loginName", "password"), ("user_name", "password"), ("user[login]", "user[password]"), ("login", "password"),
                      ("UserName", "Password")])
    func genericNamesFillAPlainLoginForm(user: String, password: String) {
        let server = Self.providerLogin(user: user, password: password)
        let ran = authcode(server.publicClient() + ["--method", "GET", "--form", "username=alice", "--form", "password=@-", "-v"],
                           stdin: Self.password + "\n", server: server)
        expectToken(ran, from: server)
        let login = server.requests.last { $0.form["txn"] != nil }
        #expect(login?.form[user] == "alice" && login?.form[password] == Self.password, "\(ran)")
        #expect(login?.form["username"] == nil && (password == "password" || login?.form["password"] == nil), "the generic names are not sent besides")
        #expect(ran.err.contains("* --form username fills the form's identifier field '\(user)'\n"), "\(ran)")
        #expect(ran.err.contains("* --form password fills the form's password field") == (password != "password"), "\(ran)")
        if password != "password" { #expect(ran.err.contains("* --form password fills the form's password field '\(password)'\n"), "\(ran)") }
    }

    /// The provider's own name wins over the generic one; and a form with
    /// two identifier-like fields gets no guess.
    @Test func theProvidersOwnNameWinsAndTwoTextFieldsGetNoGuess() {
        let server = Self.providerLogin(user: "user_name", password: "password")
        let ran = authcode(server.publicClient() + ["--method", "GET", "--form", "user_name=alice", "--form", "username=bob", "--form", "password=@-"],
                           stdin: Self.password + "\n", server: server)
        expectToken(ran, from: server)
        #expect(server.requests.last { $0.form["txn"] != nil }?.form["user_name"] == "alice")

        let two = Self.providerLogin(user: "user_name", password: "password", extra: #"<label>Domain <input type="text" name="domain"></label>"#)
        let guessed = authcode(two.publicClient() + ["--method", "GET", "--form", "username=alice", "--form", "password=@-"],
                               stdin: Self.password + "\n", server: two)
        expectFailure(guessed, .noAuthorizationResponse,
                      "authcode: error: login rejected: Wrong user name or password.; no field took --form username "
                      + "(the login's fields: user_name, domain, password) (\(two.authorizeURL))\n"
                      + "Give --form the login's own field names (user_name=…, domain=…), or username and password, "
                      + "which fill a login form's identifier and password fields.\n")
    }
}
