import Foundation
@testable import Core
@testable import HTTP

/// What stands between the authorization request and the code, as the
/// fixture's login scenarios do it (Fixtures/server/login_flows.py,
/// users.py): cookie sessions, CSRF, login and consent forms, a JSON login
/// API. Users are alice/wonderland and userN/pw-N.
extension ScriptedServer {
    static func checkUser(_ username: String?, _ password: String?) -> Bool {
        guard let username, let password else { return false }
        if username == "alice" { return password == "wonderland" }
        if username.hasPrefix("user"), let n = Int(username.dropFirst(4)), n > 0, String(n) == username.dropFirst(4) {
            return password == "pw-\(n)"
        }
        return false
    }

    static let wrongPassword = "Invalid username or password."

    func install(_ flow: Flow) {
        switch flow {
        case .direct:
            on("/authorize") { exchange, server in
                server.validate(exchange).map { server.answerCode($0, user: "alice") } ?? server.refusal
            }
        case .loginAndConsent:
            installCookieLogin(domain: nil)
        case .loginCookieDomain(let domain):
            installCookieLogin(domain: domain)
        case .loginDirect:
            on("/authorize") { $1.directLogin($0) }
        case .users:
            on("/authorize") { $1.usersAuthorize($0) }
            on("/login") { $1.usersLogin($0) }
            on("/consent") { $1.consent($0, cookie: "usid") }
        case .jsonLogin:
            on("/authorize") { $1.jsonLoginAuthorize($0) }
            on("/api/login") { $1.jsonLoginAPI($0) }
            on("/login") { exchange, _ in
                .html(Page.pleaseLogIn(error: exchange.method == "POST" ? "Please log in with the app." : nil))
            }
        }
    }

    /// The session a cookie names, with its id.
    func session(_ exchange: Exchange, cookie: String) -> (id: String, session: Session)? {
        guard let id = exchange.cookies[cookie], let found = state.read({ $0.sessions[id] }) else { return nil }
        return (id, found)
    }

    /// Parks a validated request under its txn (the fixture's txn_login), and returns the txn.
    @discardableResult
    func park(_ pending: Pending) -> String {
        state.withLock { $0.pending[pending.txn] = pending }
        return pending.txn
    }

    /// The request parked under the query's `txn` (taken away with `pop`).
    func parked(_ exchange: Exchange, pop: Bool = false) -> Pending? {
        guard let txn = exchange.query["txn"] ?? exchange.form["txn"] else { return nil }
        return state.withLock { pop ? $0.pending.removeValue(forKey: txn) : $0.pending[txn] }
    }

    /// The authorization request validated, parked, and the client sent to `page?txn=…`.
    func startLogin(_ exchange: Exchange, at page: String = "/login", headers: [HTTPHeader] = []) -> HTTPResponse {
        guard let pending = validate(exchange) else { return refusal }
        return .redirect(url(page + "?txn=" + park(pending)), headers: headers)
    }

    static let unknownTransaction = HTTPResponse.html(Page.message("Error", "Unknown transaction."), status: 400)

    func newSession(_ session: Session) -> String {
        let id = Self.fresh("sid-")
        state.withLock { $0.sessions[id] = session }
        return id
    }

    // MARK: login-consent, login-cookie-domain

    private func installCookieLogin(domain: String?) {
        on("/authorize") { exchange, server in
            guard let pending = server.validate(exchange) else { return server.refusal }
            if let (id, found) = server.session(exchange, cookie: "sid"), let user = found.user {
                guard domain == nil else { return server.answerCode(pending, user: user) }
                server.state.withLock { $0.sessions[id]?.pending = pending }
                return .redirect(server.url("/consent"))
            }
            let session = Session(user: nil, pending: pending)
            let id = server.newSession(session)
            let sid = domain.map { "sid=\(id); Domain=\($0); Path=/; Max-Age=600" } ?? "sid=\(id); Path=/; HttpOnly"
            let back = exchange.path + (URIReference(exchange.request.url)?.query.map { "?" + $0 } ?? "")
            return .redirect(server.url("/login?") + FormEncoding.encode([("return", back)]),
                             headers: [HTTPHeader("Set-Cookie", sid), HTTPHeader("Set-Cookie", "csrf=\(session.csrf); Path=/")])
        }
        on("/login") { exchange, server in
            let found = server.session(exchange, cookie: "sid")
            guard exchange.method == "POST" else {
                let csrf = found?.session.csrf ?? exchange.cookies["csrf"] ?? ""
                return .html(Page.login(action: "login", hidden: [("csrf_token", csrf), ("return", exchange.query["return"] ?? "")]))
            }
            guard let (id, session) = found, let pending = session.pending else {
                return .html(Page.message("Error", "Your session has expired."), status: 400)
            }
            let form = exchange.form
            guard let token = form["csrf_token"], token == exchange.cookies["csrf"], token == session.csrf else {
                return .html(Page.message("Error", "CSRF check failed."), status: 403)
            }
            guard Self.checkUser(form["username"], form["password"]), let user = form["username"] else {
                return .html(Page.login(action: "login", hidden: [("csrf_token", session.csrf), ("return", form["return"] ?? "")],
                                        error: Self.wrongPassword))
            }
            server.state.withLock { $0.sessions[id]?.user = user }
            guard domain == nil else {
                server.state.withLock { $0.sessions[id]?.pending = nil }
                return server.answerCode(pending, user: user)
            }
            return .redirect(server.url("/consent"), status: 303)
        }
        on("/consent") { $1.consent($0, cookie: "sid") }
    }

    /// The consent form (Deny first); allow answers with a code for the
    /// session's user, deny with access_denied.
    func consent(_ exchange: Exchange, cookie: String) -> HTTPResponse {
        guard let (id, session) = session(exchange, cookie: cookie), let user = session.user, let pending = session.pending else {
            return .html(Page.message("Error", "Please sign in first."), status: 403)
        }
        guard exchange.method == "POST" else { return .html(Page.consent(action: url("/consent"), txn: pending.txn, scope: pending.scope)) }
        guard exchange.form["txn"] == pending.txn else { return .text("session crossed\n", status: 409) }
        switch exchange.form["decision"] {
        case "allow":
            state.withLock { $0.sessions[id]?.pending = nil }
            return answerCode(pending, user: user)
        case "deny":
            state.withLock { $0.sessions[id]?.pending = nil }
            return answer(pending, [("error", "access_denied"), ("error_description", "The user denied the request")])
        default:
            return .html(Page.message("Error", "Missing decision."), status: 400)
        }
    }

    // MARK: login-direct

    /// The first visit gets the login page at this URL; credentials sent
    /// with it are ignored, so a client must find and submit the form.
    private func directLogin(_ exchange: Exchange) -> HTTPResponse {
        let params = exchange.params
        guard let txn = params["txn"] else {
            guard let pending = validate(exchange) else { return refusal }
            return .html(Page.login(action: "", hidden: [("txn", park(pending))]))
        }
        guard let pending = state.read({ $0.pending[txn] }) else {
            return .html(Page.message("Error", "Unknown or expired transaction."), status: 400)
        }
        guard Self.checkUser(params["username"], params["password"]), let user = params["username"] else {
            return .html(Page.login(action: "", hidden: [("txn", txn)], error: Self.wrongPassword))
        }
        state.withLock { $0.pending[txn] = nil }
        return answerCode(pending, user: user)
    }

    // MARK: users

    /// Cookies leaked between flows: two `usid` cookies at once (counted,
    /// so a batch test can assert it never happened).
    private func crossed(_ exchange: Exchange) -> Bool {
        let crossed = (exchange.request.header("Cookie") ?? "").split(separator: ";")
            .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("usid=") }.count > 1
        if crossed { state.withLock { $0.crossings += 1 } }
        return crossed
    }

    private func usersAuthorize(_ exchange: Exchange) -> HTTPResponse {
        guard !crossed(exchange) else { return .text("session crossed\n", status: 409) }
        guard let pending = validate(exchange) else { return refusal }
        if let (id, found) = session(exchange, cookie: "usid"), found.user != nil {
            state.withLock { $0.sessions[id]?.pending = pending }
            return .redirect(url("/consent"))
        }
        let id = newSession(Session(user: nil, pending: pending))
        return .html(Page.login(action: "login", hidden: [("txn", pending.txn)]), headers: [HTTPHeader("Set-Cookie", "usid=\(id); Path=/; HttpOnly")])
    }

    private func usersLogin(_ exchange: Exchange) -> HTTPResponse {
        guard !crossed(exchange) else { return .text("session crossed\n", status: 409) }
        guard let (id, found) = session(exchange, cookie: "usid"), let pending = found.pending else {
            return .html(Page.message("Error", "Your session has expired."), status: 400)
        }
        guard exchange.method == "POST" else { return .html(Page.login(action: "login", hidden: [("txn", pending.txn)])) }
        let form = exchange.form
        guard form["txn"] == pending.txn, found.user == nil || found.user == form["username"] else {
            state.withLock { $0.crossings += 1 }
            return .text("session crossed\n", status: 409)
        }
        guard Self.checkUser(form["username"], form["password"]), let user = form["username"] else {
            return .html(Page.login(action: "login", hidden: [("txn", pending.txn)], error: Self.wrongPassword))
        }
        state.withLock { $0.sessions[id]?.user = user }
        return .redirect(url("/consent"), status: 303)
    }

    // MARK: json-login

    private func jsonLoginAPI(_ exchange: Exchange) -> HTTPResponse {
        guard exchange.method == "POST" else { return .json(#"{"error":"method not allowed"}"#, status: 405, headers: [HTTPHeader("Allow", "POST")]) }
        let body = exchange.request.json
        guard Self.checkUser(body["username"] as? String, body["password"] as? String), let user = body["username"] as? String else {
            return .json(#"{"error":"bad credentials"}"#, status: 401)
        }
        let id = newSession(Session(user: user, pending: nil))
        return .json(#"{"ok":true}"#, headers: [HTTPHeader("Set-Cookie", "session=\(id); Path=/; HttpOnly")])
    }

    private func jsonLoginAuthorize(_ exchange: Exchange) -> HTTPResponse {
        guard let pending = validate(exchange) else { return refusal }
        guard let (_, found) = session(exchange, cookie: "session"), let user = found.user else { return .redirect(url("/login")) }
        return answerCode(pending, user: user)
    }
}
