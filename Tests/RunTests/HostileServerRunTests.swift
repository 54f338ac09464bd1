import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Issue 26's decisions that need no socket, made by `AuthCode.run` over a
/// scripted server (the end-to-end tests against the fixture prove the same
/// on the wire: ProxyProviderTests, …).
struct HostileServerRunTests {
    static let password = "hunter2-pw"
    static let form = ["AUTHCODE_FORM": "username=alice\npassword=\(password)"]

    /// Class 1: the authorization request carries its parameters and no
    /// `--form` value, POST or GET (DESIGN.md §4 step 2).
    @Test(arguments: ["POST", "GET"])
    func noFormValueInTheAuthorizationRequest(method: String) throws {
        let server = ScriptedServer()
        let ran = authcode(server.publicClient() + ["--method", method], env: Self.form, server: server)
        expectToken(ran, from: server)
        let authorize = try #require(server.requests(to: "/authorize").first)
        #expect(authorize.method.rawValue == method)
        let sent = authorize.form.merging(authorize.query) { first, _ in first }
        #expect(Set(sent.keys) == ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method"])
        #expect(!(authorize.url + String(decoding: authorize.body ?? [], as: UTF8.self)).contains(Self.password))
    }

    /// Class 4: two Location fields that differ, one carrying the code: exit
    /// 8, neither followed, nothing redeemed; identical ones are one field.
    @Test(arguments: [true, false])
    func twoLocationFields(differ: Bool) {
        let server = ScriptedServer()
        server.on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            let answer = server.answerCode(pending, user: "alice")
            let location = answer.headers.first(named: "Location") ?? ""
            let second = differ ? server.url("/elsewhere") : location
            return HTTPResponse(status: 302, headers: [HTTPHeader("Location", location), HTTPHeader("Location", second)])
        }
        let ran = authcode(server.publicClient(), server: server)
        if differ {
            expectFailure(ran, .malformedResponse,
                          "authcode: error: the 302 redirect has 2 Location fields that differ; following neither (\(server.authorizeURL))\n")
            #expect(ran.sent == ["POST /authorize"])
            #expect(server.codesRedeemed == 0)
        } else {
            expectToken(ran, from: server)
            #expect(ran.sent == ["POST /authorize", "POST /token"])
        }
    }
}
