import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

// The whole command in-process (AuthCode.run over ScriptedTransport), and
// the authorization server it talks to: routes by path, the state a real
// server keeps between requests (pending requests, codes, sessions, refresh
// tokens), and pages built like the fixture's (Fixtures/server/pages.py).
// What crosses a wire or a process stays in Tests/EndToEndTests.

/// What one in-process run did: exit code, stdout, stderr, and every request sent.
struct Ran: CustomStringConvertible {
    let arguments: [String]
    let exit: ExitCode
    let out: String
    let err: String
    let requests: [HTTPRequest]

    /// The `authcode: error: …` line, if any.
    var errorLine: String? {
        err.split(separator: "\n").first { $0.hasPrefix("authcode: error: ") }.map(String.init)
    }

    /// stdout as one JSON object (nil when it is not one).
    var json: [String: Any]? { jsonObject(out) }

    /// Request lines as `METHOD path`, for asserting what was sent where.
    var sent: [String] { requests.map { "\($0.method.rawValue) \(URIReference($0.url)?.path ?? $0.url)" } }

    var description: String {
        "authcode \(arguments.joined(separator: " "))\n→ exit \(exit.rawValue)\n--- stdout ---\n\(out.prefix(2_000))\n--- stderr ---\n\(err.prefix(4_000))"
            + "\n--- sent ---\n" + sent.joined(separator: "\n")
    }
}

/// Runs `authcode arguments` in this process: the environment is exactly
/// `env`, standard input is `stdin` (nil: reading it fails), stderr is not
/// a terminal, and every request goes to `server`.
func authcode(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, server: ScriptedServer = ScriptedServer(),
              stdoutClosed: Bool = false) -> Ran {
    let console = CapturingConsole()
    console.stdoutClosed = stdoutClosed
    let reader = ValueReader(readStandardInput: { stdin.map { Array($0.utf8) } })
    let exit = AuthCode.run(arguments: arguments, environment: env, console: console, reader: reader,
                            transport: server.transport.factory, stderrIsTerminal: false)
    return Ran(arguments: arguments, exit: exit, out: console.out, err: console.err, requests: server.transport.requests)
}

/// Asserts a failure's common shape: the exact exit code, nothing on stdout,
/// and stderr exactly `err` (the error line, then any hint).
func expectFailure(_ ran: Ran, _ exit: ExitCode, _ err: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(ran.exit == exit, "exit code\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.out.isEmpty, "stdout stays empty on failure\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.err == err, "stderr\n\(ran)", sourceLocation: sourceLocation)
}

/// Asserts success with the token the server issued last, byte for byte on one line.
@discardableResult
func expectToken(_ ran: Ran, from server: ScriptedServer, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    #expect(ran.exit == .success, "exit code\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.out == (server.lastTokenBody ?? "?") + "\n", "stdout is the token body as received\n\(ran)", sourceLocation: sourceLocation)
    return ran.json ?? [:]
}

/// Asserts no secret the run used or learnt reaches stderr: fixed
/// credentials, `extra`, and every secret-bearing value the server saw or sent.
func expectNoSecrets(_ ran: Ran, server: ScriptedServer, extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in server.secretsSeen(extra: extra) where ran.err.contains(secret) {
        Issue.record("secret '\(secret)' appears on stderr\n\(ran)", sourceLocation: sourceLocation)
    }
}

/// Decodes text as one JSON object (nil when it is not).
func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) as? [String: Any]
}

/// The claims of a JWT's payload, decoded with Foundation (not the product's decoder).
func claims(_ jwt: String) -> [String: Any]? {
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
    return Data(base64Encoded: payload).flatMap { jsonObject(String(decoding: $0, as: UTF8.self)) }
}

/// Form fields or a query, decoded with Foundation; the first value of a name wins.
func formFields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        let name = decode(parts[0])
        if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
    }
    return fields
}

extension HTTPRequest {
    var path: String { URIReference(url)?.path ?? "" }
    var query: [String: String] { formFields(URIReference(url)?.query ?? "") }
    /// The body's form fields (empty for other bodies).
    var form: [String: String] {
        guard headers.first(named: "Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true, let body else { return [:] }
        return formFields(String(decoding: body, as: UTF8.self))
    }
    /// The body as a JSON object (empty for other bodies).
    var json: [String: Any] { body.flatMap { jsonObject(String(decoding: $0, as: UTF8.self)) } ?? [:] }
    func header(_ name: String) -> String? { headers.first(named: name) }
    /// The cookies the request carries, by name (the first of a name wins).
    var cookies: [String: String] {
        var found: [String: String] = [:]
        for piece in (header("Cookie") ?? "").split(separator: ";") {
            let parts = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if found[String(parts[0])] == nil { found[String(parts[0])] = parts.count > 1 ? String(parts[1]) : "" }
        }
        return found
    }
}

extension HTTPResponse {
    static func redirect(_ location: String, status: Int = 302, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Location", location)] + headers)
    }

    static func html(_ page: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + headers, body: Array(page.utf8))
    }

    static func json(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    static func text(_ text: String, status: Int, type: String = "text/plain") -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", type)], body: Array(text.utf8))
    }
}

/// Pages as real login servers build them: a site frame whose header holds a
/// search form before the login form, so the walk must choose by meaning.
enum Page {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func frame(_ title: String, _ main: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title)) - Scripted Identity</title></head>
        <body>
        <header><a href="/">Scripted Identity</a>
          <nav><a href="/help">Help</a><form action="/search" method="get"><input name="q" placeholder="Search"></form></nav>
        </header>
        <main>
        <h1>\(escape(title))</h1>
        \(main)
        </main>
        <footer><p>For tests only.</p></footer>
        </body></html>
        """
    }

    static func hidden(_ fields: [(String, String)]) -> String {
        fields.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }.joined(separator: "\n")
    }

    /// A username and password form; `error` is shown as an alert.
    static func login(action: String, hidden fields: [(String, String)], error: String? = nil, names: (String, String) = ("username", "password")) -> String {
        let alert = error.map { #"<div class="alert alert-error" role="alert">\#(escape($0))</div>"# + "\n" } ?? ""
        return frame("Sign in", alert + """
            <form method="post" action="\(escape(action))">
            \(hidden(fields))
              <label>Username <input type="text" name="\(names.0)"></label>
              <label>Password <input type="password" name="\(names.1)"></label>
              <label><input type="checkbox" name="remember" value="yes" checked> Remember me</label>
              <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// Deny first: the walk must pick Allow by its meaning, not its place.
    static func consent(action: String, txn: String, scope: String) -> String {
        frame("Authorize access", """
            <p>The app wants <code>\(escape(scope))</code>.</p>
            <form method="post" action="\(escape(action))">
            \(hidden([("txn", txn)]))
              <button type="submit" name="decision" value="deny">Deny</button>
              <button type="submit" name="decision" value="allow">Allow</button>
            </form>
            """)
    }

    /// OAuth 2.0 Form Post Response Mode: a form to the redirect_uri.
    static func formPost(to action: String, _ fields: [(String, String)]) -> String {
        """
        <!DOCTYPE html><html><head><title>Submit This Form</title></head>
        <body onload="document.forms[0].submit()">
        <form method="post" action="\(escape(action))">
        \(hidden(fields))
        <noscript><button type="submit">Continue</button></noscript>
        </form></body></html>
        """
    }

    static func message(_ title: String, _ text: String) -> String {
        frame(title, "<p>\(escape(text))</p>")
    }
}

/// An authorization request the server accepted and has not answered yet.
struct Pending: Sendable {
    var clientID: String
    var redirectURI: String
    var state: String?
    var nonce: String?
    var scope: String
    var challenge: String?
    var challengeMethod: String?
    var responseMode: String
    var txn: String
}

/// One request as the server sees it.
struct Exchange {
    let request: HTTPRequest
    var path: String { request.path }
    var method: String { request.method.rawValue }
    var query: [String: String] { request.query }
    var form: [String: String] { request.form }
    /// The query of a GET, the form of a POST.
    var params: [String: String] { method == "GET" ? query : form }
    var cookies: [String: String] { request.cookies }
}

/// The authorization server of an in-process test. `.direct` answers the
/// authorization request with a code at once; `.login` and
/// `.loginAndConsent` put a cookie session, a login form (users
/// alice/wonderland and userN/pw-N, as the fixture's) and maybe a consent
/// form in between. Tests replace or add any route with `on(_:_:)`; a route
/// gets the server, so it can validate, answer and issue as this one does.
final class ScriptedServer: Sendable {
    typealias Route = @Sendable (Exchange, ScriptedServer) -> HTTPResponse
    enum Flow: Sendable { case direct, login, loginAndConsent }

    /// How the token endpoint answers; tests change it before the run.
    struct Behaviour: Sendable {
        /// A new refresh token with each refresh (the old one then refused).
        var rotatesRefreshTokens = false
        /// `expires_in` exactly as written into the body; nil leaves it out.
        var expiresIn: String? = "3600"
        /// `iss` added to the authorization response (RFC 9207).
        var iss: String?
        /// The access token a JWT carrying `exp` (as the fixture's jwt-access), not opaque.
        var jwtAccessToken = false
        /// Rewrites each token body before it is sent (pretty-printed, hostile…).
        var rewrite: (@Sendable (String) -> String)?
    }

    private struct State: Sendable {
        var pending: [String: Pending] = [:]
        var codes: [String: (Pending, String)] = [:]
        var refreshTokens: [String: RefreshGrant] = [:]
        var sessions: [String: Session] = [:]
        var tokenBodies: [String] = []
        var codesRedeemed = 0
        var refreshes = 0
        var refusal: HTTPResponse?
    }

    private struct RefreshGrant: Sendable { var user: String, scope: String, clientID: String }
    private struct Session: Sendable { var user: String?, pending: Pending? }
    /// The transport's way back to its server, without a reference cycle.
    private struct Owner: @unchecked Sendable { weak var server: ScriptedServer? }

    let origin: String
    let transport: ScriptedTransport
    /// The clients it knows and their secrets (nil: a public client).
    let clients: [String: String?]
    let behaviour: Lock<Behaviour>
    private let routes: Lock<[String: Route]>
    private let state = Lock(State())

    init(origin: String = "https://as.example", _ flow: Flow = .direct,
         clients: [String: String?] = ["public-app": nil, "demo-app": "demo-secret"], behaviour: Behaviour = Behaviour()) {
        let routes = Lock([String: Route]()), owner = Lock(Owner())
        self.origin = origin
        self.clients = clients
        self.behaviour = Lock(behaviour)
        self.routes = routes
        transport = ScriptedTransport { request in
            guard let server = owner.read({ $0.server }), let route = routes.read({ $0[request.path] }) else {
                return .html(Page.message("Not found", "no such page"), status: 404)
            }
            return route(Exchange(request: request), server)
        }
        owner.withLock { $0.server = self }
        on("/token") { $1.tokenEndpoint($0) }
        switch flow {
        case .direct:
            on("/authorize") { exchange, server in
                server.validate(exchange).map { server.answerCode($0, user: "alice") } ?? server.refusal
            }
        case .login, .loginAndConsent:
            let consent = flow == .loginAndConsent
            on("/authorize") { $1.sessionAuthorize($0, consent: consent) }
            on("/login") { $1.sessionLogin($0, consent: consent) }
            on("/consent") { $1.sessionConsent($0) }
        }
    }

    func on(_ path: String, _ route: @escaping Route) {
        routes.withLock { $0[path] = route }
    }

    // MARK: what tests read

    func url(_ path: String) -> String { origin + path }
    var authorizeURL: String { url("/authorize") }
    var tokenURL: String { url("/token") }
    var requests: [HTTPRequest] { transport.requests }
    func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.path == path } }
    /// The last token body the token endpoint answered with, exactly.
    var lastTokenBody: String? { state.read { $0.tokenBodies.last } }
    var codesRedeemed: Int { state.read { $0.codesRedeemed } }
    var refreshes: Int { state.read { $0.refreshes } }

    /// `--authorize-url … --token-url …`
    var endpoints: [String] { ["--authorize-url", authorizeURL, "--token-url", tokenURL] }
    func publicClient(redirect: String = ScriptedServer.redirect) -> [String] {
        endpoints + ["--client-id", "public-app", "--redirect-uri", redirect]
    }
    /// The confidential `demo-app`; pass `ScriptedServer.demoSecretEnv` as `env:`.
    func confidential(redirect: String = ScriptedServer.redirect) -> [String] {
        endpoints + ["--client-id", "demo-app", "--redirect-uri", redirect]
    }

    /// The redirect_uri most tests use: never fetched, so no route answers it.
    static let redirect = "http://127.0.0.1:8765/callback"
    static let demoSecretEnv = ["AUTHCODE_CLIENT_SECRET": "demo-secret"]
    static let alice = ["--form", "username=alice", "--form", "password=wonderland"]

    /// Every secret this server handed out or received, at least 6 characters long.
    func secretsSeen(extra: [String]) -> Set<String> {
        var found = Set(["demo-secret", "wonderland"] + extra)
        for request in requests {
            for (name, value) in request.form.merging(request.query, uniquingKeysWith: { a, _ in a })
            where ["code", "code_verifier", "password", "client_secret", "refresh_token"].contains(name) {
                found.insert(value)
            }
            if let authorization = request.header("Authorization") {
                found.insert(authorization)
                found.insert(String(authorization.split(separator: " ").last ?? ""))
            }
            request.cookies.values.forEach { found.insert($0) }
        }
        for body in state.read({ $0.tokenBodies }) {
            for field in ["access_token", "refresh_token", "id_token"] {
                if let value = jsonObject(body)?[field] as? String { found.insert(value) }
            }
        }
        return found.filter { $0.count >= 6 }
    }

    // MARK: the authorization request

    /// A fresh value like the fixture's: a prefix and 22 base64url characters.
    static func fresh(_ prefix: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return prefix + String((0..<22).map { _ in alphabet.randomElement()! })
    }

    /// What `validate` answered when it returned nil.
    var refusal: HTTPResponse { state.read { $0.refusal } ?? HTTPResponse(status: 500) }

    /// The authorization request checked as the fixture does
    /// (Fixtures/server/authorize.py): an unknown client or no redirect_uri
    /// is a 400 page; other faults go back to the redirect_uri as
    /// error=invalid_request. nil when refused (the answer is `refusal`).
    func validate(_ exchange: Exchange) -> Pending? {
        let p = exchange.params
        guard let clientID = p["client_id"], clients[clientID] != nil else {
            state.withLock { $0.refusal = .html(Page.message("Error", "unknown client"), status: 400) }
            return nil
        }
        guard let redirectURI = p["redirect_uri"] else {
            state.withLock { $0.refusal = .html(Page.message("Error", "missing redirect_uri"), status: 400) }
            return nil
        }
        let mode = p["response_mode"] ?? "query"
        let pending = Pending(clientID: clientID, redirectURI: redirectURI, state: p["state"], nonce: p["nonce"], scope: p["scope"] ?? "",
                              challenge: p["code_challenge"], challengeMethod: p["code_challenge_method"] ?? (p["code_challenge"] == nil ? nil : "plain"),
                              responseMode: ["query", "fragment", "form_post"].contains(mode) ? mode : "query", txn: Self.fresh("txn-"))
        var problem: String?
        if p["response_type"] != "code" {
            problem = "response_type must be code"
        } else if pending.challenge == nil, clients[clientID] == .some(nil) {
            problem = "PKCE (code_challenge) is required for public clients"
        }
        if let problem {
            state.withLock { $0.refusal = answer(pending, [("error", "invalid_request"), ("error_description", problem)]) }
            return nil
        }
        return pending
    }

    /// A code for `user`, delivered per the response_mode.
    func answerCode(_ pending: Pending, user: String, status: Int = 302) -> HTTPResponse {
        let code = Self.fresh("code-")
        state.withLock { $0.codes[code] = (pending, user) }
        return answer(pending, [("code", code)], status: status)
    }

    /// The authorization response `fields`, then state and any `iss`, to the redirect_uri.
    func answer(_ pending: Pending, _ fields: [(String, String)], withState: Bool = true, status: Int = 302) -> HTTPResponse {
        let iss = behaviour.read { $0.iss }
        let all = fields + (withState ? pending.state.map { [("state", $0)] } ?? [] : []) + (iss.map { [("iss", $0)] } ?? [])
        switch pending.responseMode {
        case "form_post": return .html(Page.formPost(to: pending.redirectURI, all))
        case "fragment": return .redirect(pending.redirectURI + "#" + FormEncoding.encode(all), status: status)
        default: return .redirect(pending.redirectURI + (pending.redirectURI.contains("?") ? "&" : "?") + FormEncoding.encode(all), status: status)
        }
    }

    // MARK: cookie sessions, login and consent (as Fixtures/server/users.py)

    static func checkUser(_ username: String?, _ password: String?) -> Bool {
        guard let username, let password else { return false }
        if username == "alice" { return password == "wonderland" }
        if username.hasPrefix("user"), let n = Int(username.dropFirst(4)), n > 0 { return password == "pw-\(n)" }
        return false
    }

    static let wrongPassword = "Invalid username or password."

    private func session(_ exchange: Exchange) -> (id: String, Session)? {
        guard let id = exchange.cookies["sid"], let found = state.read({ $0.sessions[id] }) else { return nil }
        return (id, found)
    }

    private func sessionAuthorize(_ exchange: Exchange, consent: Bool) -> HTTPResponse {
        guard let pending = validate(exchange) else { return refusal }
        if let (id, found) = session(exchange), let user = found.user {
            guard consent else { return answerCode(pending, user: user) }
            state.withLock { $0.sessions[id]?.pending = pending }
            return .redirect(url("/consent"))
        }
        let id = Self.fresh("sid-")
        state.withLock { $0.sessions[id] = Session(user: nil, pending: pending) }
        return .html(Page.login(action: "login", hidden: [("txn", pending.txn)]), headers: [HTTPHeader("Set-Cookie", "sid=\(id); Path=/; HttpOnly")])
    }

    private func sessionLogin(_ exchange: Exchange, consent: Bool) -> HTTPResponse {
        guard let (id, found) = session(exchange), let pending = found.pending else {
            return .html(Page.message("Error", "Your session has expired."), status: 400)
        }
        guard exchange.method == "POST" else { return .html(Page.login(action: "login", hidden: [("txn", pending.txn)])) }
        let form = exchange.form
        guard form["txn"] == pending.txn else { return .text("session crossed\n", status: 409) }
        guard Self.checkUser(form["username"], form["password"]), let user = form["username"] else {
            return .html(Page.login(action: "login", hidden: [("txn", pending.txn)], error: Self.wrongPassword))
        }
        state.withLock { $0.sessions[id]?.user = user }
        guard consent else {
            state.withLock { $0.sessions[id]?.pending = nil }
            return answerCode(pending, user: user)
        }
        return .redirect(url("/consent"), status: 303)
    }

    private func sessionConsent(_ exchange: Exchange) -> HTTPResponse {
        guard let (id, found) = session(exchange), let user = found.user, let pending = found.pending else {
            return .html(Page.message("Error", "Please sign in first."), status: 403)
        }
        guard exchange.method == "POST" else { return .html(Page.consent(action: url("/consent"), txn: pending.txn, scope: pending.scope)) }
        guard exchange.form["txn"] == pending.txn else { return .text("session crossed\n", status: 409) }
        state.withLock { $0.sessions[id]?.pending = nil }
        switch exchange.form["decision"] {
        case "allow": return answerCode(pending, user: user)
        case "deny": return answer(pending, [("error", "access_denied"), ("error_description", "The user denied the request")])
        default: return .html(Page.message("Error", "Missing decision."), status: 400)
        }
    }

    // MARK: the token endpoint (RFC 6749 §4.1.3, §6)

    /// Who authenticated, from Basic (RFC 6749 §2.3.1: each part
    /// form-encoded, decoded here with Foundation) or the body.
    private func client(_ exchange: Exchange) -> Result<String, TokenRefusal> {
        let form = exchange.form
        var id = form["client_id"], secret = form["client_secret"]
        if let basic = exchange.request.header("Authorization"), basic.hasPrefix("Basic ") {
            guard let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                  let colon = decoded.firstIndex(of: ":") else { return .failure(TokenRefusal(401, "invalid_client", "Bad Basic header")) }
            id = formFields("a=" + decoded[..<colon])["a"]
            secret = formFields("a=" + decoded[decoded.index(after: colon)...])["a"]
        }
        guard let id, let known = clients[id], known == secret else {
            return .failure(TokenRefusal(401, "invalid_client", "Client authentication failed"))
        }
        return .success(id)
    }

    struct TokenRefusal: Error {
        let response: HTTPResponse
        init(_ status: Int, _ error: String, _ description: String) {
            response = .json(#"{"error":"\#(error)","error_description":"\#(description)"}"#, status: status)
        }
    }

    func tokenEndpoint(_ exchange: Exchange) -> HTTPResponse {
        let form = exchange.form
        let clientID: String
        switch client(exchange) {
        case .success(let id): clientID = id
        case .failure(let refusal): return refusal.response
        }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let (pending, user) = state.withLock({ $0.codes.removeValue(forKey: code) }),
                  pending.clientID == clientID, pending.redirectURI == form["redirect_uri"], verifies(pending, form["code_verifier"]) else {
                return TokenRefusal(400, "invalid_grant", "The code has expired").response
            }
            state.withLock { $0.codesRedeemed += 1 }
            return issue(user: user, scope: pending.scope, clientID: clientID, nonce: pending.nonce)
        case "refresh_token":
            guard let token = form["refresh_token"], let grant = state.read({ $0.refreshTokens[token] }), grant.clientID == clientID else {
                return TokenRefusal(400, "invalid_grant", "The refresh token is not valid").response
            }
            let rotates = behaviour.read { $0.rotatesRefreshTokens }
            state.withLock {
                $0.refreshes += 1
                if rotates { $0.refreshTokens[token] = nil }
            }
            return issue(user: grant.user, scope: form["scope"] ?? grant.scope, clientID: clientID, nonce: nil, refreshToken: rotates ? nil : token)
        default:
            return TokenRefusal(400, "unsupported_grant_type", "Unknown grant_type").response
        }
    }

    private func verifies(_ pending: Pending, _ verifier: String?) -> Bool {
        guard let challenge = pending.challenge else { return verifier == nil }
        guard let verifier else { return false }
        return pending.challengeMethod == "S256" ? Base64URL.encode(SHA256.hash(Array(verifier.utf8))) == challenge : verifier == challenge
    }

    /// Forgets every refresh token, as a server does when a grant is revoked.
    func revokeRefreshTokens() {
        state.withLock { $0.refreshTokens = [:] }
    }

    /// A token response: a fresh access token, a refresh token (the same
    /// one again after a refresh unless it rotates), and an id_token when
    /// scope has openid.
    func issue(user: String, scope: String, clientID: String, nonce: String?, refreshToken: String? = nil) -> HTTPResponse {
        let behaviour = behaviour.read { $0 }
        let access = behaviour.jwtAccessToken ? accessJWT(sub: user) : Self.fresh("at-"), refresh = refreshToken ?? Self.fresh("rt-")
        state.withLock { $0.refreshTokens[refresh] = RefreshGrant(user: user, scope: scope, clientID: clientID) }
        var body = #"{"access_token":"\#(access)","token_type":"Bearer""#
        if let expiresIn = behaviour.expiresIn { body += #","expires_in":\#(expiresIn)"# }
        body += #","refresh_token":"\#(refresh)""#
        if !scope.isEmpty { body += #","scope":\#(JSONText.quote(scope))"# }
        if scope.split(separator: " ").contains("openid") {
            body += #","id_token":"\#(idToken(sub: user, aud: clientID, nonce: nonce))""#
        }
        body += "}"
        if let rewrite = behaviour.rewrite { body = rewrite(body) }
        state.withLock { $0.tokenBodies.append(body) }
        return .json(body)
    }

    /// An access token that is a JWT with `exp` an hour from now.
    private func accessJWT(sub: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return Base64URL.encode(Array(#"{"alg":"RS256","typ":"at+jwt"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"iss":\#(JSONText.quote(origin)),"sub":\#(JSONText.quote(sub)),"exp":\#(now + 3600),"jti":"\#(Self.fresh(""))"}"#.utf8)) + ".c2ln"
    }

    /// An id_token for this origin. Endpoints given by hand and no --jwks
    /// mean no keys, so only its claims are checked (and -v says so).
    func idToken(sub: String, aud: String, nonce: String?, issuer: String? = nil, extra: String = "") -> String {
        let now = Int(Date().timeIntervalSince1970)
        var payload = #"{"iss":\#(JSONText.quote(issuer ?? origin)),"sub":\#(JSONText.quote(sub)),"aud":\#(JSONText.quote(aud)),"exp":\#(now + 3600),"iat":\#(now)"#
        if let nonce { payload += #","nonce":\#(JSONText.quote(nonce))"# }
        payload += extra + "}"
        return Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1"}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2lnbmF0dXJl"
    }
}

/// A file holding `contents`, removed when the test is done with it.
struct TempFile: ~Copyable {
    let path: String
    init(_ contents: String, mode: Int = 0o600) throws {
        path = NSTemporaryDirectory() + "authcode-run-\(UUID().uuidString)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A fresh cache directory for one test; `path` below `root` is left for
/// authcode to create (mode 0700).
struct CacheDir: ~Copyable {
    let root: String
    let path: String

    init() {
        root = NSTemporaryDirectory() + "authcode-cache-\(UUID().uuidString.prefix(8))"
        path = root + "/nested/authcode"
    }

    var flags: [String] { ["--cache", "--cache-dir", path] }

    /// The files in it, by suffix (`.token`, `.lock`).
    func files(_ suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(suffix) }.map { path + "/" + $0 }.sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// A directory for one test, removed with everything in it when done.
struct TempDir: ~Copyable {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "authcode-run-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    @discardableResult
    func file(_ name: String, _ contents: String = "", mode: Int = 0o600) throws -> String {
        let full = path + "/" + name
        try contents.write(toFile: full, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: full)
        return full
    }

    /// The names in it, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
