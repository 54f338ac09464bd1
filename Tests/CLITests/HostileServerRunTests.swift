import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

/// Issue 26's decisions that need no socket, made by `AuthCode.run` over a
/// scripted server (the end-to-end tests against the fixture prove the same
/// on the wire: ProxyProviderTests, …).
struct HostileServerRunTests {
    static let password = "hunter2-pw"
    static let environment = ["AUTHCODE_CLIENT_SECRET": AuthCodeRunTests.secret, "AUTHCODE_FORM": "username=alice\npassword=\(password)"]

    /// Class 1: the authorization request carries its parameters and no
    /// `--form` value, POST or GET (DESIGN.md §4 step 2).
    @Test(arguments: ["POST", "GET"])
    func noFormValueInTheAuthorizationRequest(method: String) throws {
        let transport = AuthCodeRunTests.server()
        let (exit, _) = AuthCodeRunTests.run(["--method", method], transport: transport, environment: Self.environment)
        #expect(exit == .success)
        let authorize = try #require(transport.requests.first)
        #expect(authorize.method.rawValue == method)
        #expect(Set(AuthCodeRunTests.parameters(authorize).keys) == ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method"])
        let sent = authorize.url + String(decoding: authorize.body ?? [], as: UTF8.self)
        #expect(!sent.contains(Self.password) && !sent.contains("alice"))
    }
}
