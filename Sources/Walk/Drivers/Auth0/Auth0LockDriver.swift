import Core
import HTTP

/// Auth0 Classic Login (README "Identity providers"): the Lock widget's page, a script over
/// `/usernamepassword/login` (Auth0LockPage.swift). The driver does what
/// Lock does for a database connection (auth0.js src/web-auth/
/// username-password.js; Fixtures/server/replicas/auth0.md): reads the
/// client's database connection from its configuration file, posts the
/// credentials with the transaction's `state` and `_csrf` as JSON, and
/// hands the walk the answer — a form (`wa`, `wresult`, `wctx`) that the
/// walk submits to `/login/callback` as a browser's script would. A
/// one-time code goes in `mfa_code` when the answer is `a0.mfa_required`
/// (Lock src/connection/database/actions.js).
package struct Auth0LockDriver: LoginDriver {
    package var provider: IdentityProvider { .auth0 }

    package init() {}

    package func recognises(_ page: DriverPage) -> Bool {
        page.isHTML && Auth0LockPage.recognises(page.html) && Auth0LockPage(page.html) != nil
    }

    package func drive(from page: DriverPage, in session: DriverSession) throws(DriverError) -> DriverStep {
        guard page.isHTML, let lock = Auth0LockPage(page.html) else {
            throw .pageUnknown(provider: .auth0, saw: "a \(page.response.status) \(page.mediaType ?? "answer") without Lock's configuration",
                               at: page.place)
        }
        for secret in lock.secrets { session.remember(secret: secret) }
        guard let url = lock.loginURL(pageURL: page.url), let clientID = lock.clientID else {
            throw .pageUnknown(provider: .auth0, saw: "a Lock configuration without auth0Domain or clientID", at: page.place)
        }
        guard let user = session.value(for: ["username", "email"]), let password = session.value(for: ["password"]) else {
            throw .credentialsMissing(provider: .auth0, names: ["username", "password"], at: page.place)
        }
        let connection = try self.connection(of: lock, page: page, in: session)
        var body: [String: JSONValue] = ["client_id": .string(clientID), "connection": .string(connection),
                                         "username": .string(user), "password": .string(password), "_intstate": .string("deprecated")]
        if let tenant = lock.tenant { body["tenant"] = .string(tenant) }
        if let callback = lock.callbackURL { body["redirect_uri"] = .string(callback) }
        for name in ["state", "_csrf", "nonce", "scope", "response_type", "protocol"] {
            if let value = lock.parameter(name) { body[name] = .string(value) }
        }
        var headers = [HTTPHeader("Auth0-Client", Base64URL.encodeStandard(Array(JSONText.object([("name", "authcode"), ("version", Version.current)]).utf8)))]
        if let origin = page.origin { headers.insert(HTTPHeader("Origin", origin), at: 0) }
        var request = HTTPRequest.json(url, .object(body), headers: headers)
        request.credential = .filledForm
        var answer = try session.send(request, step: "usernamepassword/login (\(connection))")
        if Self.errorCode(answer) == "a0.mfa_required" {
            let code = try session.oneTimeCode(at: Walker.place(url))
            body["mfa_code"] = .string(code)
            request.body = Array(JSONText.serialize(.object(body)).utf8)
            answer = try session.send(request, step: "usernamepassword/login with the one-time code (mfa_code)")
        }
        if answer.isSuccess, PageHandler.isHTML(answer) {
            return .received(answer, for: request)
        }
        throw Self.failure(answer, at: Walker.place(url), codeSent: body["mfa_code"] != nil, in: session)
    }

    /// The database connection the credentials are for: the transaction's
    /// own, or the first database (`auth0` strategy) connection of the
    /// client's configuration file (`Auth0.setClient({…})`, which saml2aws
    /// reads too).
    private func connection(of lock: Auth0LockPage, page: DriverPage, in session: DriverSession) throws(DriverError) -> String {
        if let named = lock.parameter("connection"), !named.isEmpty { return named }
        guard let url = lock.clientScriptURL(pageURL: page.url) else {
            throw .pageUnknown(provider: .auth0, saw: "a Lock configuration without clientConfigurationBaseUrl or cdn", at: page.place)
        }
        let answer = try session.send(HTTPRequest(method: .get, url: url), step: "client configuration (connections)")
        let client = ScriptValues.object(after: "Auth0.setClient(", in: answer.text)
        let databases = (client?["strategies"]?.elements ?? []).filter { $0["name"]?.stringValue == "auth0" }
        guard answer.isSuccess, let name = databases.lazy.flatMap({ $0["connections"]?.elements ?? [] }).compactMap({ $0["name"]?.nonEmptyString }).first else {
            throw .pageUnknown(provider: .auth0, saw: "a \(answer.status) client configuration without a database connection", at: Walker.place(url))
        }
        return name
    }

    /// The `code` of Auth0's JSON error (`{name, code, description,
    /// statusCode}`), if the answer is one.
    static func errorCode(_ answer: HTTPResponse) -> String? {
        guard !answer.isSuccess, let json = JSONValue.parse(answer.body) else { return nil }
        return json["code"]?.stringValue ?? json["error"]?.stringValue
    }

    /// An error answer as the driver's error: a turned-down login with
    /// Auth0's own description (wrong password, blocked user, too many
    /// attempts), a turned-down code, or an answer it does not know.
    static func failure(_ answer: HTTPResponse, at place: String, codeSent: Bool, in session: DriverSession) -> DriverError {
        guard let json = JSONValue.parse(answer.body), let code = json["code"]?.stringValue ?? json["error"]?.stringValue else {
            return .pageUnknown(provider: .auth0, saw: "a \(answer.status) answer of \(answer.body.count) bytes of \(answer.mediaType ?? "no content type")",
                                at: place)
        }
        let text = json["description"]?.nonEmptyString ?? json["error_description"]?.nonEmptyString ?? json["message"]?.nonEmptyString ?? code
        if codeSent, code == "a0.mfa_invalid_code" || code == "invalid_otp" {
            return .oneTimeCodeRejected(provider: .auth0, text: text, at: place)
        }
        switch code {
        case "invalid_user_password", "unauthorized", "too_many_attempts", "blocked_user", "password_leaked", "invalid_grant", "access_denied":
            return .loginRejected(provider: .auth0, text: text, at: place)
        case "a0.mfa_registration_required":
            return .requiredAction(provider: .auth0, action: "enrol a second factor (a0.mfa_registration_required)", at: place)
        default:
            return .pageUnknown(provider: .auth0, saw: "a \(answer.status) answer with error code \(code): \(text)", at: place)
        }
    }
}
