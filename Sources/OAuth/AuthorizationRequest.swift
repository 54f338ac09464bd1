import Core
import HTTP

/// The authorization request of RFC 6749 §4.1.1, with the fresh values this
/// run must remember to check the answer: state, nonce and the PKCE verifier.
package struct AuthorizationRequest: Equatable, Sendable {
    package let state: String
    package let nonce: String?
    package let pkce: PKCE
    let parameters: [NameValue]

    /// - Parameters: `random` supplies fresh bytes (tests pass fixed ones);
    ///   `repeated` are added as they are, a name possibly several times
    ///   (`resource`, RFC 8707 §2).
    package init(clientID: String, redirectURI: String, scope: String?, pkce method: PKCEMethod,
                 responseMode: ResponseMode?, extra: [NameValue], repeated: [NameValue] = [], random: (Int) -> [UInt8] = Randomness.bytes) {
        state = Base64URL.encode(random(16))
        let scopes = scope?.split(separator: " ").map(String.init) ?? []
        // OIDC Core §3.1.2.1: a nonce binds the id_token to this request.
        nonce = scopes.contains("openid") ? Base64URL.encode(random(16)) : nil
        pkce = PKCE(method: method, randomBytes: random(32))

        var parameters = [
            NameValue("response_type", "code"),
            NameValue("client_id", clientID),
            NameValue("redirect_uri", redirectURI),
        ]
        if let scope, !scope.isEmpty { parameters.append(NameValue("scope", scope)) }
        parameters.append(NameValue("state", state))
        if method != .off {
            parameters.append(NameValue("code_challenge", pkce.challenge))
            parameters.append(NameValue("code_challenge_method", pkce.method.rawValue))
        }
        if let nonce { parameters.append(NameValue("nonce", nonce)) }
        if let mode = responseMode { parameters.append(NameValue("response_mode", mode.rawValue)) }
        // --param adds (prompt, audience…). The option parser refuses every
        // name authcode sets above (ReservedParameter.swift); replacing
        // rather than appending keeps any other caller from sending one twice.
        for parameter in extra {
            parameters.removeAll { $0.name == parameter.name }
            parameters.append(parameter)
        }
        self.parameters = parameters + repeated
    }

    /// POST sends the parameters as a form body; GET puts them in the
    /// query, keeping any query the URL had. Nothing else, either way: no
    /// `--form` value (a username, a password) is ever part of the
    /// authorization request (README "How the walk works" step 2). The authorization
    /// endpoint may be a proxy that logs what it receives (SATOSA does, at
    /// its default level) while the login lives at another path or origin;
    /// credentials go only to the form that asks for them.
    package func httpRequest(endpoint: String, method: AuthorizationMethod, headers: [HTTPHeader]) -> HTTPRequest {
        Self.httpRequest(endpoint: endpoint, method: method, parameters: parameters, headers: headers)
    }

    /// Every parameter, for a pushed request or a request object.
    package var allParameters: [NameValue] { parameters }

    /// The request with `parameters` instead of this request's own: the
    /// front-channel request after PAR (`client_id`, `request_uri`) or beside
    /// a request object (`client_id`, `request`).
    package static func httpRequest(endpoint: String, method: AuthorizationMethod, parameters: [NameValue],
                                    headers: [HTTPHeader]) -> HTTPRequest {
        let pairs = parameters.map { ($0.name, $0.value) }
        switch method {
        case .post:
            return .form(url: endpoint, fields: pairs, headers: headers)
        case .get:
            // A fragment is never sent; drop it before appending the query.
            let url = ASCII.prefix(endpoint, before: ASCII.hash)
            let last = url.utf8.last
            let separator = !url.utf8.contains(ASCII.question) ? "?" : (last == ASCII.question || last == ASCII.ampersand ? "" : "&")
            return HTTPRequest(method: "GET", url: url + separator + FormEncoding.encode(pairs), headers: headers)
        }
    }
}
