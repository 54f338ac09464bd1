import Core
import HTTP

/// The access token request of RFC 6749 §4.1.3, with the client
/// authentication chosen by `--auth-method` (§2.3.1).
package struct TokenRequest: Sendable {
    var tokenURL: String
    var code: String
    var redirectURI: String
    var codeVerifier: String?
    var clientID: String
    var clientSecret: String?
    var authMethod: ClientAuthMethod

    package init(tokenURL: String, code: String, redirectURI: String, codeVerifier: String?, clientID: String, clientSecret: String?, authMethod: ClientAuthMethod) {
        self.tokenURL = tokenURL
        self.code = code
        self.redirectURI = redirectURI
        self.codeVerifier = codeVerifier
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authMethod = authMethod
    }

    package func httpRequest(headers: [HTTPHeader]) -> HTTPRequest {
        var fields = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirectURI),
        ]
        if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        var allHeaders = headers
        allHeaders.append(HTTPHeader("Accept", "application/json"))
        switch authMethod {
        case .clientSecretBasic:
            allHeaders.append(HTTPHeader("Authorization", Self.basicAuthorization(clientID: clientID, secret: clientSecret ?? "")))
        case .clientSecretPost:
            fields.append(("client_id", clientID))
            fields.append(("client_secret", clientSecret ?? ""))
        case .none:
            fields.append(("client_id", clientID))
        }
        return .form(url: tokenURL, fields: fields, headers: allHeaders)
    }

    /// RFC 6749 §2.3.1: id and secret are each form-urlencoded, then joined
    /// with a colon and base64-encoded. Many clients skip the encoding step and
    /// break on secrets holding ':' or '%'.
    static func basicAuthorization(clientID: String, secret: String) -> String {
        let joined = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret)
        return "Basic " + Base64URL.encodeStandard(Array(joined.utf8))
    }
}
