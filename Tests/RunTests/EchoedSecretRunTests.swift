import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI

/// Servers that echo what they receive (README.md "Security rules":
/// redaction; Core/Redaction/Redactor.swift): whatever spelling a secret
/// comes back in, stderr shows `[redacted]`, never the secret or a piece of
/// it. The echoing server is written after Fixtures/server/echo.py, its
/// spellings made with Foundation, not the product's SecretForms. Moved from
/// EndToEndTests/EchoedSecretTests.
struct EchoedSecretRunTests {
    static let namelessCookie = "abcdefsecretvalue"
    static let echoSession = "echosessionsecret42"
    static let cookieSession = "sessionsecretvalue42"

    /// Raw, HTML-escaped, percent-encoded (upper and lower hex, `+` for
    /// space), JSON-escaped and base64.
    static func spellings(_ value: String) -> [String] {
        let pct = value.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
        let lower = pct.replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }
        let html = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#x27;")
        let json = String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
        return [value, html, pct, lower, pct.replacingOccurrences(of: "%20", with: "+"), String(json.dropFirst().dropLast()),
                Data(value.utf8).base64EncodedString()]
            + value.split(separator: " ").map(String.init).filter { $0.count >= 6 }
    }

    static func echoed(_ value: String) -> String {
        let s = spellings(value)
        return "raw=\(s[0]) html=\(s[1]) pct=\(s[2]) pct-lower=\(s[3]) plus=\(s[4]) json=\(s[5]) base64=\(s[6])"
    }

    static func expectRedacted(_ secrets: [String], in ran: Ran, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            for spelling in spellings(secret) where ran.err.contains(spelling) {
                Issue.record("'\(spelling)' (a spelling of '\(secret)') is on stderr\n\(ran)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The authorization request parks and sends to /login with `cookies`;
    /// the login page's POST answers with `echo`.
    static func echoServer(cookies: [String], echo: @escaping @Sendable (Exchange) -> HTTPResponse) -> ScriptedServer {
        let server = ScriptedServer()
        server.on("/authorize") { $1.startLogin($0, headers: cookies.map { HTTPHeader("Set-Cookie", $0) }) }
        server.on("/login") { exchange, _ in
            exchange.method == "POST" ? echo(exchange) : .html(Page.login(action: "login?txn=\(exchange.query["txn"] ?? "")", hidden: []))
        }
        return server
    }

    /// A password with every character encoders treat differently, and an -H Basic credential.
    @Test func echoPage() throws {
        let server = Self.echoServer(cookies: ["session=\(Self.echoSession); Path=/; HttpOnly"]) { exchange in
            // Every field (the password first), the Authorization header and its decoding, every other header, the cookies.
            let form = exchange.request.form
            let names = form.keys.filter { $0 == "password" } + form.keys.filter { $0 != "password" }.sorted()
            var lines = names.map { "field \(Page.escape($0)): \(Self.echoed(form[$0] ?? ""))" }
            if let authorization = exchange.request.header("Authorization") {
                lines.append("authorization: \(Self.echoed(authorization))")
                if let decoded = Data(base64Encoded: String(authorization.dropFirst(6))) { lines.append("authorization decoded: \(Self.echoed(String(decoding: decoded, as: UTF8.self)))") }
            }
            for header in exchange.request.headers where !["authorization", "cookie"].contains(header.name.lowercased()) {
                lines.append("header \(Page.escape(header.name)): \(Self.echoed(header.value))")
            }
            if let cookie = exchange.request.header("Cookie") { lines.append("cookie: \(Self.echoed(cookie))") }
            return .html("<!DOCTYPE html><html><head><title>Bad Request</title></head><body><h1>Bad Request</h1>\n<pre>" + lines.joined(separator: "\n")
                         + "</pre></body></html>", status: 400)
        }
        let password = try TempFile(#"my pass/phrase+%é"<>&'x"#)
        let basic = "Basic " + Data("alice:hunter two".utf8).base64EncodedString()
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@\(password.path)", "-H", "Authorization: \(basic)", "-v"],
                           server: server)
        #expect(ran.exit == .noAuthorizationResponse && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine?.hasPrefix("authcode: error: unexpected 400 answer: Bad Request field password: raw=[redacted] html=[redacted] pct=[redacted] pct-lower=[redacted] plus=") == true,
                "\(ran)")
        Self.expectRedacted([#"my pass/phrase+%é"<>&'x"#, "alice:hunter two", "hunter two", basic, Self.echoSession], in: ran)
        expectNoSecrets(ran, server: server)
    }

    /// A nameless cookie and a session cookie, echoed raw, HTML-escaped and percent-encoded.
    @Test func echoCookie() {
        let server = Self.echoServer(cookies: [Self.namelessCookie, "session=\(Self.cookieSession); Path=/; HttpOnly"]) { exchange in
            let cookie = exchange.request.header("Cookie") ?? ""
            let pct = cookie.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cookie
            return .html(Page.frame("Session error", "<p>Your session is invalid. Cookie: \(cookie) (\(Page.escape(cookie)); \(pct))</p>"), status: 400)
        }
        let ran = authcode(server.publicClient() + ScriptedServer.alice + ["-v"], server: server)
        #expect(ran.exit == .noAuthorizationResponse && ran.out.isEmpty, "\(ran)")
        #expect(ran.err.contains("< Set-Cookie: =[redacted]\n"), "a nameless cookie is all value\n\(ran)")
        #expect(server.requests(to: "/login").last?.cookies["session"] == Self.cookieSession, "the session cookie went back to be echoed")
        Self.expectRedacted([Self.namelessCookie, Self.cookieSession, "wonderland"], in: ran)
    }

    /// The token endpoint echoes the Basic header, its decoded id:secret and the body.
    @Test func echoToken() throws {
        let secret = "p@ss:w/rd+ =%&"
        let server = ScriptedServer(clients: ["weird:app id": secret])
        server.on("/token") { exchange, _ in
            let authorization = exchange.request.header("Authorization") ?? ""
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let parts = decoded.split(separator: ":", maxSplits: 1).map { formFields("a=" + $0)["a"] ?? "" }
            let body = String(decoding: exchange.request.body ?? [], as: UTF8.self)
            let description = "Authorization: \(authorization); decoded: \(parts.joined(separator: ":")); body: \(body)"
            return .json(#"{"error":"invalid_client","error_description":\#(JSONText.quote(description))}"#, status: 400)
        }
        let ran = authcode(server.endpoints + ["--client-id", "weird:app id", "--redirect-uri", ScriptedServer.redirect],
                           env: ["AUTHCODE_CLIENT_SECRET": secret], server: server)
        let token = try #require(server.requests(to: "/token").first)
        let code = try #require(token.form["code"]), verifier = try #require(token.form["code_verifier"])
        expectFailure(ran, .tokenEndpoint, "authcode: error: the login worked, but the token endpoint refused: 400 error=invalid_client: Authorization: Basic [redacted];"
                      + " decoded: weird:app id:[redacted]; body: grant_type=authorization_code&code=[redacted]&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback"
                      + "&code_verifier=[redacted] (\(server.tokenURL))\n"
                      + "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header).\n")
        Self.expectRedacted([secret, code, verifier, try #require(token.header("Authorization"))], in: ran)
    }

    /// A --step body value echoed by the server in its error.
    @Test func stepBodyValuesAreSecrets() {
        let server = ScriptedServer(.jsonLogin)
        server.on("/api/login") { exchange, _ in
            .json(#"{"error":"bad credentials for \#(String(decoding: exchange.request.body ?? [], as: UTF8.self).replacingOccurrences(of: "\"", with: "'"))"}"#, status: 401)
        }
        let ran = authcode(server.publicClient() + ["--step", #"POST \#(server.url("/api/login")) {"username":"alice","password":"not-the-pass word"}"#], server: server)
        #expect(ran.exit == .noAuthorizationResponse && ran.out.isEmpty, "\(ran)")
        #expect(ran.errorLine?.hasPrefix("authcode: error: step 1 (POST) answered 401: ") == true, "\(ran)")
        Self.expectRedacted(["not-the-pass word"], in: ran)
    }
}
