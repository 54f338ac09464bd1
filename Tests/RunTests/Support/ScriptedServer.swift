import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

/// The authorization server of an in-process test, modelled on the
/// fixture's (Fixtures/server): it validates the authorization request,
/// answers per response_mode, keeps codes, sessions and refresh tokens, and
/// checks client authentication and PKCE at the token endpoint. `Flow`
/// picks what stands between the request and the code
/// (ScriptedServer+Logins.swift); tests replace or add any route with
/// `on(_:_:)`, and a route gets the server to validate, answer and issue
/// as it does.
final class ScriptedServer: Sendable {
    typealias Route = @Sendable (Exchange, ScriptedServer) -> HTTPResponse

    /// As the fixture's scenarios of the same names.
    enum Flow: Sendable {
        /// A code on the first request.
        case direct
        /// login-consent: a redirect to /login with a session and a CSRF
        /// cookie, the login form, then the consent form.
        case loginAndConsent
        /// login-cookie-domain: as loginAndConsent with a `Domain=` session
        /// cookie and no consent.
        case loginCookieDomain(String)
        /// login-direct: the login form at the authorization endpoint
        /// itself, posted back there.
        case loginDirect
        /// users: the login form at the authorization endpoint with a
        /// session cookie per user, then consent (batch runs).
        case users
        /// json-login: a JSON API at /api/login sets the session cookie; the
        /// HTML /login page never logs anyone in.
        case jsonLogin
    }

    /// How the token endpoint answers; tests change it before the run.
    struct Behaviour: Sendable {
        /// A new refresh token with each refresh (the old one then refused).
        var rotatesRefreshTokens = false
        /// `expires_in` exactly as written into the body; nil leaves it out.
        var expiresIn: String? = "3600"
        /// `iss` added to the authorization response (RFC 9207).
        var iss: String?
        /// The issuer its id_tokens name (the origin unless discovery says otherwise).
        var issuer: String?
        /// id_token claims as raw JSON by name, given the time of issue:
        /// each replaces the claim of that name or is added after the others.
        var idTokenClaims: @Sendable (_ now: Int) -> [String: String] = { _ in [:] }
        /// The access token a JWT carrying `exp` (as the fixture's jwt-access), not opaque.
        var jwtAccessToken = false
        /// A refresh answers without a refresh_token (the client keeps its own).
        var refreshOmitsRefreshToken = false
        /// Rewrites each token body before it is sent (pretty-printed, hostile…).
        var rewrite: (@Sendable (String) -> String)?
        /// Sends this instead of the (rewritten) token body: the token is
        /// issued and works, only the answer on the wire is spoiled.
        var respond: (@Sendable (String) -> HTTPResponse)?
    }

    struct State: Sendable {
        var pending: [String: Pending] = [:]
        var codes: [String: (Pending, String)] = [:]
        var refreshTokens: [String: RefreshGrant] = [:]
        var sessions: [String: Session] = [:]
        var tokenBodies: [String] = []
        var codesRedeemed = 0
        var refreshes = 0
        var crossings = 0
        var refusal: HTTPResponse?
    }

    struct RefreshGrant: Sendable { var user: String, scope: String, clientID: String }
    struct Session: Sendable { var user: String?, pending: Pending?, csrf = ScriptedServer.fresh("csrf-") }
    /// The transport's way back to its server, without a reference cycle.
    private struct Owner: @unchecked Sendable { weak var server: ScriptedServer? }

    let origin: String
    let transport: ScriptedTransport
    /// The clients it knows and their secrets (nil: a public client).
    let clients: [String: String?]
    let behaviour: Lock<Behaviour>
    private let routes: Lock<[String: Route]>
    let state = Lock(State())

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
        install(flow)
    }

    func on(_ path: String, _ route: @escaping Route) {
        routes.withLock { $0[path] = route }
    }

    /// The route at `path` now (a 404 page if none), so a test can wrap it.
    func route(_ path: String) -> Route {
        if let route = routes.read({ $0[path] }) { return route }
        return { _, _ in HTTPResponse.html(Page.message("Not found", "no such page"), status: 404) }
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
    /// How often a request showed cookies crossed between users' flows.
    var crossings: Int { state.read { $0.crossings } }

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
            return issue(user: grant.user, scope: form["scope"] ?? grant.scope, clientID: clientID, nonce: nil, refreshToken: rotates ? nil : token,
                         isRefresh: true)
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
    func issue(user: String, scope: String, clientID: String, nonce: String?, refreshToken: String? = nil, isRefresh: Bool = false) -> HTTPResponse {
        let behaviour = behaviour.read { $0 }
        let access = behaviour.jwtAccessToken ? accessJWT(sub: user) : Self.fresh("at-"), refresh = refreshToken ?? Self.fresh("rt-")
        state.withLock { $0.refreshTokens[refresh] = RefreshGrant(user: user, scope: scope, clientID: clientID) }
        var body = #"{"access_token":"\#(access)","token_type":"Bearer""#
        if let expiresIn = behaviour.expiresIn { body += #","expires_in":\#(expiresIn)"# }
        if !(isRefresh && behaviour.refreshOmitsRefreshToken) { body += #","refresh_token":"\#(refresh)""# }
        if !scope.isEmpty { body += #","scope":\#(JSONText.quote(scope))"# }
        if scope.split(separator: " ").contains("openid") {
            body += #","id_token":"\#(idToken(sub: user, aud: clientID, nonce: nonce))""#
        }
        body += "}"
        if let rewrite = behaviour.rewrite { body = rewrite(body) }
        state.withLock { $0.tokenBodies.append(body) }
        return behaviour.respond?(body) ?? .json(body)
    }

    /// An access token that is a JWT with `exp` an hour from now.
    private func accessJWT(sub: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return Base64URL.encode(Array(#"{"alg":"RS256","typ":"at+jwt"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"iss":\#(JSONText.quote(origin)),"sub":\#(JSONText.quote(sub)),"exp":\#(now + 3600),"jti":"\#(Self.fresh(""))"}"#.utf8)) + ".c2ln"
    }

    /// A JWS whose signature is never checked (no keys), from raw JSON.
    static func unsignedJWT(_ payload: String, header: String = #"{"alg":"RS256","kid":"k1"}"#) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".c2lnbmF0dXJl"
    }

    /// An id_token for this origin. Endpoints given by hand and no --jwks
    /// mean no keys, so only its claims are checked (and -v says so).
    func idToken(sub: String, aud: String, nonce: String?, issuer: String? = nil) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let behaviour = behaviour.read { $0 }
        var claims = [("iss", JSONText.quote(issuer ?? behaviour.issuer ?? origin)), ("sub", JSONText.quote(sub)), ("aud", JSONText.quote(aud)),
                      ("exp", String(now + 3600)), ("iat", String(now))]
        if let nonce { claims.append(("nonce", JSONText.quote(nonce))) }
        let overrides = behaviour.idTokenClaims(now)
        claims = claims.map { ($0.0, overrides[$0.0] ?? $0.1) } + overrides.filter { name, _ in !claims.contains { $0.0 == name } }.sorted { $0.key < $1.key }
        let payload = "{" + claims.map { "\(JSONText.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
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
