import Foundation
import Testing

/// Servers as they come, met with the flags a user would naturally give
/// (Fixtures/server/README.md "Real servers with default settings"): a POST
/// authorization request falls back to GET once, never following a URL that
/// carries a --form value; login errors read as a person reads them; pages
/// that need JavaScript say so.
@Suite("Real servers with default flags")
struct RealServerTests {
    /// The password from stdin (`@-`): on the command line it would earn a hint on stderr.
    static let alice = ["--form", "username=alice", "--form", "password=@-"]
    static let password = "wonderland\n"
    static let note = "authcode: note: "

    static func notes(_ result: RunResult) -> [String] {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix(note) }.map(String.init)
    }

    static func fallbackNote(_ why: String) -> String {
        note + why + "; sending it again as GET without the --form values (--method GET goes there directly)"
    }

    /// Every request URL the fixture recorded, its query decoded up to three
    /// times (raw, percent-encoded once, twice), must be free of the --form
    /// values.
    static func expectNoFormValueInURLs(_ hits: [Hit], _ values: [String] = ["wonderland", "username=alice"],
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        for hit in hits {
            var text = hit.path + "?" + hit.query
            for level in 0...3 {
                // The message names the place, never the value: test logs stay free of secrets.
                for (index, value) in values.enumerated() where text.contains(value) {
                    Issue.record("--form value #\(index + 1) in the URL of \(hit.method) \(hit.path) (decoded \(level) times)", sourceLocation: sourceLocation)
                }
                text = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
            }
        }
    }

    // MARK: - POST, then GET

    /// Servers that turn a POST authorization request into a GET copy every
    /// field it had into a URL, at once or after the login page. The request
    /// carries no --form value (README "How the walk works", step 2), so nothing they copy
    /// holds the password: no URL of the walk does, the password goes only
    /// to the login form, and no fallback is needed.
    @Test(arguments: ["post-to-get", "post-to-get-late", "post-to-get-late-twice"])
    func postTurnedIntoAURLCarriesNoPassword(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        let password = try TempFile("wonderland\n")
        let result = try await run(fx.publicClient(scenario) + ["--form", "username=alice", "--form", "password=@" + password.path])
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "no fallback, no note\n\(result)")
        let hits = try fx.hits()
        Self.expectNoFormValueInURLs(hits)
        let authorize = hits.filter { $0.endpoint == "authorize" }
        #expect(authorize.first?.method == "POST", "\(hits.map(\.path))")
        #expect(authorize.allSatisfy { $0.form["password"] == nil && $0.form["username"] == nil }, "no --form value in the authorization request")
        // Form, query and the cookie that keeps the request (base64url JSON).
        #expect(hits.filter(ProxyProviderTests.holdsPassword).map(\.endpoint) == ["login"], "the password goes to the login form only")
        #expect(hits.filter { $0.endpoint == "token" }.count == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func postRefusedWith403FallsBackToGET() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("post-403") + Self.alice + ["-v"], stdin: Self.password)
        expectTokenJSON(result)
        #expect(Self.notes(result) == [Self.fallbackNote("the server refused the POST authorization request (403)")], "\(result)")
        let hits = try fx.hits()
        #expect(hits.filter { $0.endpoint == "authorize" }.map(\.method) == ["POST", "GET"], "\(hits.map(\.path))")
        Self.expectNoFormValueInURLs(hits)
    }

    /// Issue 31 item 3: a fallback that works is not news (README "How the walk works", step 2), by
    /// default as with -q: stderr stays empty.
    @Test(arguments: [[], ["-q"]])
    func aFallbackThatWorksPrintsNoNote(_ extra: [String]) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("post-403") + Self.alice + extra, stdin: Self.password)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try fx.hits().filter { $0.endpoint == "authorize" }.map(\.method) == ["POST", "GET"])
    }

    @Test func methodGETGoesStraightThere() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("post-to-get") + Self.alice + ["--method", "GET"], stdin: Self.password)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "no fallback, no note\n\(result)")
        let hits = try fx.hits()
        #expect(hits.filter { $0.endpoint == "authorize" }.map(\.method) == ["GET"], "\(hits.map(\.path))")
        Self.expectNoFormValueInURLs(hits)
    }

    @Test func javaScriptShellForThePOSTThenGETAfterAStep() async throws {
        let fx = try await Fixture.make()
        // The body from a file: written on the command line it would earn the literal-secret hint.
        let body = try TempFile("{\"username\":\"alice\",\"password\":\"wonderland\"}")
        let step = "POST \(fx.issuer("post-js-get-ok"))/api/login @\(body.path)"
        let result = try await run(fx.publicClient("post-js-get-ok") + ["--step", step])
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "the fallback worked: no note\n\(result)")
        let hits = try fx.hits()
        let get = try #require(hits.first { $0.endpoint == "authorize" && $0.method == "GET" }, "\(hits.map(\.path))")
        #expect(get.headers["cookie"]?.hasPrefix("session=") == true, "the --step cookie survives the fallback")
        expectNoSecrets(in: result, fixture: fx)
    }

    // MARK: - JavaScript

    @Test func loginPageThatNeedsJavaScript() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("js-login") + Self.alice + ["--method", "GET"], stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: the login page needs JavaScript (no HTML form) (\(fx.issuer("js-login"))/authorize)\n"
            + "authcode runs no scripts: log in through the server's JSON API with --step 'POST URL {\"username\":…}' before the authorization request (README: \"Identity providers\").\n",
                "\(result)")
        #expect(try fx.hits(to: "token").isEmpty)
    }

    @Test func loginPageThatNeedsJavaScriptWithDefaultFlags() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("js-login") + Self.alice + ["-q"], stdin: Self.password)
        #expect(result.stderr == "authcode: error: the login page needs JavaScript (no HTML form) (\(fx.issuer("js-login"))/authorize)\n", "\(result)")
        #expect(result.exitCode == 6)
        #expect(try fx.hits(to: "authorize").map(\.method) == ["POST", "GET"], "GET tried once, as for any page the POST cannot walk")
    }

    @Test func realFormBesideANoscriptWarningIsWalked() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("noscript-form") + Self.alice, stdin: Self.password)
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
    }

    // MARK: - Login errors

    @Test(arguments: [
        ("login-error-hidden-banner", "Invalid username or password."),
        ("login-error-noscript", "Invalid username or password."),
        ("login-error-entities", "Invalid username or password. Don't & \"retry\""),
        ("login-error-css-hidden", "Invalid username or password."),
        ("login-error-401", "Invalid username or password."),
        ("login-error-403", "Invalid username or password."),
        ("login-error-422", "Invalid username or password."),
    ])
    func loginErrorAsAPersonReadsIt(_ scenario: String, _ text: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--form", "username=alice", "--form", "password=not-alice"])
        expectFailure(result, exit: 6, [])
        #expect(result.errorLine == "authcode: error: login rejected: \(text) (\(fx.issuer(scenario))/login)", "\(result)")
        #expect(Self.notes(result).isEmpty, "credentials went into a form: no fallback\n\(result)")
        #expect(try fx.hits(to: "authorize").count == 1)
        expectNoSecrets(in: result, fixture: fx, extra: ["not-alice"])
    }
}
