import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The Glewlwyd driver's decisions on scripted answers: what it recognises,
/// the order of its calls, which scheme it answers, and the exact error
/// when it cannot (the real server: EndToEndTests/GlewlwydDriverTests.swift).
struct GlewlwydDriverTests {
    typealias Server = GlewlwydScriptedServer
    static let first = HTTPRequest(method: .get, url: Server.authorize)
    static let scheme = Server.base + "/api/auth/scheme/"

    static func page(_ url: String, _ html: String = String(decoding: Server.page.body, as: UTF8.self)) -> DriverPage {
        DriverPage(request: HTTPRequest(method: .get, url: url),
                   response: HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8)),
                   parsed: ParsedPage(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8))))
    }

    @Test(arguments: [
        (Server.loginPage, true),
        (Server.base + "/login.html?client_id=c1&callback_url=https%3A%2F%2Fg.example%2Fapi%2Foidc%2Fauth", true),
        (Server.base + "/login.html?client_id=c1&scope=openid", false),
        (Server.base + "/signin.html?client_id=c1&scope=openid&callback_url=https%3A%2F%2Fg.example%2Fx", false),
        (Server.base + "/login.html?scope=openid&callback_url=https%3A%2F%2Fg.example%2Fx", false),
        (Server.base + "/login.html?client_id=c1&callback_url=relative", false),
    ])
    func recognisesTheLoginPageByItsURLAndApp(url: String, taken: Bool) {
        #expect(GlewlwydDriver().recognises(Self.page(url)) == taken)
        #expect(!GlewlwydDriver().recognises(Self.page(url, "<html><form><input name=username></form></html>")), "another product's login.html")
    }

    @Test func theLoginPageSaysWhereTheAPIAndTheContinueAre() throws {
        let page = try #require(GlewlwydLoginPage(url: "https://g.example/sso/login.html?client_id=c%201&scope=openid+api&callback_url=https%3A%2F%2Fg.example%2Fsso%2Fapi%2Foidc%2Fauth%3Fa%3D1&authorization_details=t1,t2&plugin=oidc"))
        #expect(page.apiBase == "https://g.example/sso/api")
        #expect(page.scopes == ["openid", "api"])
        #expect(page.scopeComponent == "openid%20api")
        #expect(GlewlwydLoginPage.component(page.clientID) == "c%201")
        #expect(page.continueURL == "https://g.example/sso/api/oidc/auth?a=1&g_continue")
        #expect(page.authorizationDetailTypes == ["t1", "t2"] && page.plugin == "oidc")
        #expect(page.origin == "https://g.example")
    }

    /// Password, grant (totp not granted yet), schemes, the code, then the
    /// authorization request again with g_continue: the code comes back.
    @Test func logsInGrantsAndAnswersTheOneTimeCode() throws {
        let server = Server(schemes: Server.schemes([("otp", "otp", true)]))
        let console = CapturingConsole()
        let walker = server.walker(console: console)
        #expect(try walker.walk(from: Self.first) == .redirect(URIReference(Server.redirect + "?code=c0de&state=s1")!))
        #expect(server.posted == [
            #"POST /api/auth/ {"password":"builder","username":"bob"}"#,
            #"PUT /api/auth/grant/c1 {"scope":"openid totp"}"#,
            #"POST /api/auth/ {"scheme_name":"otp","scheme_type":"otp","username":"bob","value":{"value":"287082"}}"#,
        ])
        #expect(server.transport.requests.last?.url == Server.authorize + "&g_continue")
        #expect(walker.hops == 5, "login page, password, grant, code, continue (the grant check and the schemes are reads)")
        #expect(console.err.contains("* glewlwyd: scope totp asks for 1 of otp; answering otp 'otp'\n"))
        #expect(!console.err.contains("builder") && !console.err.contains("287082"), "\(console.err)")
    }

    /// Two of two: each scheme of the group is answered, the password again too.
    @Test func answersEverySchemeAGroupRequires() throws {
        let server = Server(schemes: Server.schemes([("retype-password", "again", true), ("otp", "otp", true)], required: 2))
        server.granted = true
        _ = try server.walker().walk(from: Self.first)
        #expect(server.posted.dropFirst().map { $0.contains(#""scheme_type":"retype-password""#) || $0.contains(#""scheme_type":"otp""#) } == [true, true],
                "\(server.posted)")
    }

    @Test(arguments: [
        (Server.schemes([("otp", "otp", true)]), false, DriverError.oneTimeCodeNeeded(provider: .glewlwyd, at: scheme)),
        (Server.schemes([("otp", "otp", false)]), true,
         .requiredAction(provider: .glewlwyd, action: "set up a one-time password (TOTP) in the user's profile for the scope totp", at: scheme)),
        (Server.schemes([("webauthn", "key", true)]), true, .passkey(.noPasskey, at: scheme)),
        (Server.schemes([("webauthn", "key", false)]), true, .passkey(.registrationNotAllowed(path: nil), at: scheme)),
        (Server.schemes([("email", "mail", true)]), true,
         .factorUnsupported(provider: .glewlwyd, factor: "a code sent by e-mail (scheme email 'mail')", at: scheme)),
        (Server.schemes([("certificate", "cert", true), ("oauth2", "gh", true)]), true,
         .factorUnsupported(provider: .glewlwyd, factor: "a TLS client certificate (scheme certificate 'cert')", at: scheme)),
        (#"{"totp":{"password_required":true,"password_authenticated":false,"available":true}}"#, true,
         .pageUnknown(provider: .glewlwyd, saw: "the scope totp still asks for the password it accepted", at: scheme)),
        (#"["no"]"#, true, .pageUnknown(provider: .glewlwyd, saw: "a scheme answer that is not an object of scopes", at: scheme)),
    ])
    func namesWhatItCannotAnswer(schemes: String, totp: Bool, error: DriverError) {
        let server = Server(schemes: schemes)
        server.granted = true
        #expect(throws: WalkError.driver(error)) { try server.walker(totp: totp).walk(from: Self.first) }
        #expect(server.transport.requests.last?.url.hasSuffix("g_continue") == false, "never continued")
    }

    /// A user without a passkey and `--passkey-register`: new-credential,
    /// register-credential, trigger, assertion — binary values in standard
    /// base64 as the apps' btoa makes them, the credential's `id` base64url,
    /// clientDataJSON for the login page's origin. (Glewlwyd itself checks
    /// the signatures: EndToEndTests/GlewlwydDriverTests.swift.)
    @Test func registersAPasskeyThenSignsWithIt() throws {
        let server = Server(schemes: Server.schemes([("webauthn", "webauthn", false)]))
        server.granted = true
        let store = MemoryPasskeyStore(mayRegister: true)
        _ = try server.walker(totp: false, passkey: store).walk(from: Self.first)
        let bodies = server.posted.dropFirst().map { JSONValue.parse(Array($0.drop { $0 != "{" }.utf8)) }
        #expect(bodies.map { $0?["value"]?["register"]?.stringValue } == ["new-credential", "register-credential", nil, nil], "\(server.posted)")
        let credential = try #require(store.credential)
        #expect(bodies[1]?["value"]?["credential"]?["rawId"]?.stringValue == Base64URL.encodeStandard(credential.credentialID))
        #expect(bodies[1]?["value"]?["credential"]?["id"]?.stringValue == Base64URL.encode(credential.credentialID))
        #expect(bodies[1]?["value"]?["session"]?.stringValue == "reg-session-1")
        #expect(credential.userHandle == Array("user-1".utf8) && credential.rpID == "g.example")
        let response = bodies[3]?["value"]?["credential"]?["response"]
        let clientData = try #require(response?["clientDataJSON"]?.stringValue.flatMap { Base64URL.decode(Substring($0)) })
        #expect(JSONValue.parse(clientData)?["type"]?.stringValue == "webauthn.get")
        #expect(JSONValue.parse(clientData)?["origin"]?.stringValue == "https://g.example")
        #expect(JSONValue.parse(clientData)?["challenge"]?.stringValue == Base64URL.encode(Array(0..<64)))
        #expect(bodies[3]?["value"]?["session"]?.stringValue == "auth-session-1")
        #expect(credential.signCount == 1)
    }

    @Test func aWrongPasswordIsTheLoginAppsText() {
        let server = Server(schemes: Server.schemes([]))
        #expect(throws: WalkError.driver(DriverError.loginRejected(provider: .glewlwyd, text: "Authentication error", at: Server.base + "/api/auth/"))) {
            try server.walker(form: [NameValue("username", "bob"), NameValue("password", "wrong-one")]).walk(from: Self.first)
        }
        #expect(server.posted.count == 1, "no second try")
    }

    @Test func noFormValuesNameTheFields() {
        let server = Server(schemes: Server.schemes([]))
        let error = DriverError.credentialsMissing(provider: .glewlwyd, names: ["username", "password"], at: Server.base + "/login.html")
        #expect(throws: WalkError.driver(error)) { try server.walker(form: []).walk(from: Self.first) }
        #expect(server.posted.isEmpty)
    }

    /// Glewlwyd's error texts: a JSON list of strings, or a short plain line; never HTML.
    @Test(arguments: [
        (#"["authData.rpIdHash invalid"]"#, "authData.rpIdHash invalid"),
        (#"["a","b"]"#, "a; b"),
        ("bad scheme response", "bad scheme response"),
        ("<html>oops</html>", nil),
        (#"{"error":"x"}"#, nil),
        ("", nil),
    ] as [(String, String?)])
    func serverTextIsGlewlwydsOwnWords(body: String, text: String?) {
        #expect(GlewlwydAPI.serverText(HTTPResponse(status: 400, body: Array(body.utf8))) == text)
    }
}
