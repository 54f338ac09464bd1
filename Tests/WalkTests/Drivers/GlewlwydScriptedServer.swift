import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// Glewlwyd's login API as Fixtures/glewlwyd/README.md measures it, in
/// memory, for the driver's decisions: the login page, the password, the
/// grant, the scheme list (set per test), TOTP, and the authorization
/// endpoint that answers with the code once `g_continue` comes.
final class GlewlwydScriptedServer: @unchecked Sendable {
    static let base = "https://g.example"
    static let redirect = "http://127.0.0.1:8765/cb"
    static let authorize = base + "/api/oidc/auth?client_id=c1&scope=openid+totp&state=s1"
    static let loginPage = base + "/login.html?client_id=c1&scope=openid+totp&callback_url=" + FormEncoding.escape(authorize)
    static let page = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")],
                                   body: Array(#"<html><head><title>Glewlwyd login</title></head><body><div id="root"></div><script src="login.js"></script></body></html>"#.utf8))

    /// The answer to `GET /api/auth/scheme/`.
    var schemes: String
    /// The passkey's rawId as registered (standard base64), which the trigger then allows.
    var registered: String?
    /// 64 bytes 0…63 in standard base64, as Glewlwyd sends its challenges.
    static let challenge = Base64URL.encodeStandard(Array(0..<64))
    var granted = false
    /// Bodies of the JSON POSTs and PUTs, in order.
    private(set) var posted: [String] = []
    var transport: ScriptedTransport!

    init(schemes: String) {
        self.schemes = schemes
        transport = ScriptedTransport { [unowned self] request in self.answer(request) }
    }

    static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(text.utf8))
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if request.method != .get { posted.append("\(request.method) \(URIReference(request.url)?.path ?? "") \(body)") }
        switch (request.method.rawValue, request.url) {
        case ("POST", Self.base + "/api/oidc/auth"), ("GET", Self.authorize):
            return HTTPResponse(status: 302, headers: [HTTPHeader("Location", Self.loginPage)])
        case ("GET", Self.authorize + "&g_continue"):
            return HTTPResponse(status: 302, headers: [HTTPHeader("Location", Self.redirect + "?code=c0de&state=s1")])
        case ("GET", Self.loginPage): return Self.page
        case ("POST", Self.base + "/api/auth/"):
            if body.contains(#""password":"builder""#) || body.contains(#""value":{"value":"#) || body.contains(#""value":{"credential":"#) {
                return HTTPResponse(status: 200)
            }
            return HTTPResponse(status: 401)
        case ("GET", Self.base + "/api/auth/grant/c1/openid%20totp"):
            return Self.json(#"{"client":{"client_id":"c1"},"scope":[{"name":"openid","granted":true},{"name":"totp","granted":\#(granted)}]}"#)
        case ("PUT", Self.base + "/api/auth/grant/c1"):
            granted = true
            return HTTPResponse(status: 200)
        case ("GET", Self.base + "/api/auth/scheme/?scope=openid%20totp"): return Self.json(schemes)
        case ("POST", Self.base + "/api/profile/scheme/register/"):
            if body.contains(#""register":"new-credential""#) {
                return Self.json(#"{"session":"reg-session-1","challenge":"\#(Self.challenge)","pubKey-cred-params":[{"type":"public-key","alg":-7}],"#
                    + #""attestation-required":"none","user":{"id":"dXNlci0x","name":"carol"},"rpId":"https://g.example"}"#)
            }
            if let range = body.firstRange(of: #""rawId":""#) {
                registered = String(body[range.upperBound...].prefix { $0 != "\"" })
            }
            return HTTPResponse(status: 200)
        case ("POST", Self.base + "/api/auth/scheme/trigger/"):
            guard let registered else { return HTTPResponse(status: 401) }
            return Self.json(#"{"allowCredentials":[{"credential_id":"\#(registered)","status":"registered"}],"session":"auth-session-1","#
                + #""challenge":"\#(Self.challenge)","user":{"id":"dXNlci0x","name":"carol"},"rpId":"https://g.example"}"#)
        default: return HTTPResponse(status: 404)
        }
    }

    /// A walker over this server with the drivers authcode has.
    func walker(form: [NameValue] = [NameValue("username", "bob"), NameValue("password", "builder")], totp: Bool = true,
                passkey: (any PasskeyStore)? = nil, console: CapturingConsole = CapturingConsole()) -> Walker {
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: true, redactor: redactor, console: console, names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        client.adapters.append(OriginPolicy(trusting: [Self.base], userHeaders: [], trace: trace))
        let walker = Walker(client: client, target: RedirectTarget(URIReference(Self.redirect)!), maxHops: 10, formValues: form, submit: nil,
                            state: "s1")
        // RFC 6238 App. B: the SHA-1 key at T = 59 s gives 287082.
        if totp { walker.pages.codes = OneTimeCodes(totp: try! TOTP(secret: Array("12345678901234567890".utf8)), fieldName: nil, now: { 59 }) }
        walker.passkey = Passkey(store: passkey)
        return walker
    }

    /// The scheme answer for scope totp with one group `factor` of these schemes.
    static func schemes(_ list: [(type: String, name: String, registered: Bool)], required: Int = 1) -> String {
        let items = list.map { #"{"scheme_type":"\#($0.type)","scheme_name":"\#($0.name)","scheme_authenticated":false,"scheme_registered":\#($0.registered)}"# }
        return #"{"openid":{"password_required":true,"password_authenticated":true,"available":true,"schemes":{},"scheme_required":{}},"#
            + #""totp":{"password_required":true,"password_authenticated":true,"available":true,"schemes":{"factor":[\#(items.joined(separator: ","))]},"scheme_required":{"factor":\#(required)}}}"#
    }
}
