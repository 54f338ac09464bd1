import Core
import HTTP

/// A token request (RFC 6749 §4.1.3, §6) for any grant, with the client
/// authentication chosen by `--auth-method` (§2.3.1).
package struct TokenRequest: Sendable {
    package var tokenURL: String
    package var grant: Grant
    package var client: ClientCredentials

    package init(tokenURL: String, grant: Grant, client: ClientCredentials) {
        self.tokenURL = tokenURL
        self.grant = grant
        self.client = client
    }

    package func httpRequest(headers: [HTTPHeader]) -> HTTPRequest {
        var fields = grant.fields
        var allHeaders = headers
        allHeaders.append(HTTPHeader("Accept", "application/json"))
        switch client.method {
        case .clientSecretBasic:
            allHeaders.append(HTTPHeader("Authorization", Self.basicAuthorization(clientID: client.id, secret: client.secret ?? "")))
        case .clientSecretPost:
            fields.append(("client_id", client.id))
            fields.append(("client_secret", client.secret ?? ""))
        case .none:
            fields.append(("client_id", client.id))
        }
        return .form(url: tokenURL, fields: fields, headers: allHeaders)
    }

    /// RFC 6749 §2.3.1: id and secret are each form-urlencoded, then joined
    /// with a colon and base64-encoded. Many clients skip the encoding step and
    /// break on secrets holding ':' or '%'.
    package static func basicAuthorization(clientID: String, secret: String) -> String {
        let joined = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret)
        return "Basic " + Base64URL.encodeStandard(Array(joined.utf8))
    }
}
