import Foundation
import Testing

/// Login and consent pages, JSON login steps (ARCHITECTURE.md "The walk"), and how
/// a failed login ends (exit 6).
@Suite("Login and consent pages")
struct LoginFlowTests {
    static let alice = ["--form", "username=alice", "--form", "password=wonderland"]

    @Test func loginThenConsentWithPOSTAuthorization() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("login-consent") + Self.alice + ["-v"])
        expectTokenJSON(result)
        let hits = try fx.hits()
        let consent = try #require(hits.first { $0.endpoint == "consent" && $0.method == "POST" }, "\(hits)")
        #expect(consent.form["decision"] == "allow", "the allow button, never deny: \(consent)")
        #expect(consent.form["txn"] != nil)
        let login = try #require(hits.first { $0.endpoint == "login" && $0.method == "POST" }, "\(hits)")
        #expect(login.form["username"] == "alice" && login.form["password"] == "wonderland")
        #expect(login.form["csrf_token"] != nil && login.form["remember"] != nil, "hidden and checked fields kept: \(login)")
        // §4.2: a POST authorization request carries every --form; nothing else may see the password.
        for hit in hits where hit.form["password"] != nil {
            #expect(["authorize", "login"].contains(hit.endpoint), "password sent to \(hit)")
        }
        #expect(!hits.contains { $0.endpoint == "cb" })
        #expect(result.stderr.contains("[redacted]"), "\(result)")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func loginThenConsentWithGETSendsThePasswordOnlyToLogin() async throws {
        let fx = try await Fixture.make()
        let password = try TempFile("wonderland\n")
        let result = try await run(fx.publicClient("login-consent")
            + ["--method", "GET", "--form", "username=alice", "--form", "password=@" + password.path, "-v"])
        expectTokenJSON(result)
        let hits = try fx.hits()
        let carriers = hits.filter { $0.form["password"] != nil || $0.queryItems["password"] != nil }
        #expect(carriers.map(\.endpoint) == ["login"], "the password goes to /login only: \(hits)")
        #expect(carriers.first?.form["password"] == "wonderland", "@FILE read, newline dropped")
        #expect(hits.first { $0.endpoint == "consent" && $0.method == "POST" }?.form["decision"] == "allow")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func submitChoosesTheButton() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("login-consent") + Self.alice + ["--submit", "decision=allow"])
        expectTokenJSON(result)
        #expect(try fx.hits(to: "consent").last?.form["decision"] == "allow")
    }

    @Test func submitDenyEndsWithAccessDenied() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("login-consent") + Self.alice + ["--submit", "decision=deny"])
        expectFailure(result, exit: 4, ["access_denied"])
        #expect(try fx.hits(to: "token").isEmpty)
    }

    @Test(arguments: ["login-direct", "login-cookie-domain"])
    func loginPageFlows(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + Self.alice + ["--verbose"])
        expectTokenJSON(result)
        #expect(try fx.hits(to: "token").count == 1)
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func jsonLoginStep() async throws {
        let fx = try await Fixture.make()
        let step = "POST \(fx.issuer("json-login"))/api/login {\"username\":\"alice\",\"password\":\"wonderland\"}"
        let result = try await run(fx.publicClient("json-login") + ["--step", step, "-v"])
        expectTokenJSON(result)
        let hits = try fx.hits()
        #expect(hits.first?.endpoint == "login" && hits.first?.path.hasSuffix("/api/login") == true, "the step goes first: \(hits)")
        #expect(hits.first?.headers["content-type"]?.contains("json") == true)
        #expect(hits.first?.json["username"] == "alice")
        #expect(hits.first { $0.endpoint == "authorize" }?.headers["cookie"]?.contains("session=") == true, "the step's cookie is shared")
        expectNoSecrets(in: result, fixture: fx)
    }

    @Test func jsonLoginStepBodyFromFile() async throws {
        let fx = try await Fixture.make()
        let body = try TempFile("{\"username\":\"alice\",\"password\":\"wonderland\"}\n")
        let result = try await run(fx.publicClient("json-login") + ["--step", "POST \(fx.issuer("json-login"))/api/login @\(body.path)"])
        expectTokenJSON(result)
        #expect(try fx.hits().first?.json["password"] == "wonderland")
    }

    // MARK: exit 6

    @Test(arguments: ["login-consent", "login-direct"])
    func wrongPasswordIsLoginRejected(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + ["--form", "username=alice", "--form", "password=not-alice"])
        expectFailure(result, exit: 6, ["login rejected", "Invalid username or password"])
        #expect(try fx.hits(to: "token").isEmpty)
        expectNoSecrets(in: result, fixture: fx, extra: ["not-alice"])
    }

    @Test func loginPageWithoutFormValuesNamesTheFields() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("login-consent"))
        expectFailure(result, exit: 6, ["username", "password", "--form"])
    }

    @Test func jsonLoginStepWithWrongPassword() async throws {
        let fx = try await Fixture.make()
        let step = "POST \(fx.issuer("json-login"))/api/login {\"username\":\"alice\",\"password\":\"not-alice\"}"
        let result = try await run(fx.publicClient("json-login") + ["--step", step])
        expectFailure(result, exit: 6, ["step 1", "401"])
        #expect(try fx.hits(to: "authorize").isEmpty, "nothing after a failed step")
        expectNoSecrets(in: result, fixture: fx, extra: ["not-alice"])
    }

    @Test func jsonLoginWithoutStepMeetsAPageThatNeverSucceeds() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("json-login") + Self.alice)
        expectFailure(result, exit: 6, [])
        #expect(try fx.hits(to: "token").isEmpty)
    }
}
