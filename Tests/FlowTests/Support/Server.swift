import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow

/// An authorization server played in memory (TestSupport/ScriptedTransport),
/// for unit tests of Flow's own logic; the real servers are the end-to-end
/// tests'.
enum Server {
    static let authorize = "https://as.example/authorize"
    static let token = "https://as.example/token"
    static let login = "https://as.example/login"
    static let redirect = "http://127.0.0.1:8765/cb"

    static func settings(_ change: (inout FlowSettings) -> Void = { _ in }) -> FlowSettings {
        var settings = FlowSettings()
        settings.client.id = "app"
        settings.client.redirectURI = redirect
        settings.server.authorizeURL = authorize
        settings.server.tokenURL = token
        change(&settings)
        return settings
    }

    /// The fields of a request: its form body, else its query.
    static func fields(_ request: HTTPRequest) -> [String: String] {
        let text = request.body.map { String(decoding: $0, as: UTF8.self) } ?? (URIReference(request.url)?.query ?? "")
        return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
    }

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [HTTPHeader("Location", location)])
    }

    /// The answer to an authorization request: the code, with its state.
    static func code(_ code: String, for request: HTTPRequest) -> HTTPResponse {
        redirect("\(Self.redirect)?code=\(code)&state=\(fields(request)["state"] ?? "")")
    }

    static func tokenAnswer(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(json.utf8))
    }

    static func page(_ html: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8))
    }

    static let loginPage = page("""
        <form action="/login" method="post"><input name="username"><input type="password" name="password">
        <input type="submit" value="Sign in"></form>
        """)

    /// A login form at the authorization endpoint, keeping the request's
    /// state in a hidden field: `--form` values (a batch record's fields)
    /// reach a server only through a form (README "How the walk works", step 2).
    static func loginPage(for request: HTTPRequest) -> HTTPResponse {
        page(#"<form action="/login" method="post"><input type="hidden" name="txn" value="\#(fields(request)["state"] ?? "")">"#
            + #"<input name="username"><input type="password" name="password"><input type="submit" value="Sign in"></form>"#)
    }

    /// The answer to that form: the code, with the state it kept.
    static func code(_ code: String, afterLogin request: HTTPRequest) -> HTTPResponse {
        redirect("\(Self.redirect)?code=\(code)&state=\(fields(request)["txn"] ?? "")")
    }

    /// Answers the token request with a token for `code`.
    static func token(for request: HTTPRequest) -> HTTPResponse {
        tokenAnswer(#"{"access_token":"at-\#(fields(request)["code"] ?? "")","token_type":"Bearer","expires_in":3600}"#)
    }

    /// `<METHOD> <URL without query>` of each request, for exact assertions.
    static func lines(_ transport: ScriptedTransport) -> [String] {
        transport.requests.map { "\($0.method) \(URIReference($0.url)?.withoutQuery ?? $0.url)" }
    }
}
