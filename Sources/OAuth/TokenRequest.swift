import Core
import HTTP

/// A token request (RFC 6749 §4.1.3, §6) for any grant, with the client
/// authentication chosen by `--auth-method` (§2.3.1, RFC 7523, RFC 8705)
/// and the resource indicators of RFC 8707 §2.2.
package struct TokenRequest: Sendable {
    package var tokenURL: String
    package var grant: Grant
    package var client: ClientCredentials
    /// This request's client assertion (private_key_jwt, client_secret_jwt).
    package var assertion: String?
    /// `--resource` values, each sent as a `resource` field.
    package var resources: [String]

    package init(tokenURL: String, grant: Grant, client: ClientCredentials, assertion: String? = nil, resources: [String] = []) {
        self.tokenURL = tokenURL
        self.grant = grant
        self.client = client
        self.assertion = assertion
        self.resources = resources
    }

    package func httpRequest(headers: [HTTPHeader]) -> HTTPRequest {
        let authentication = ClientAuthentication(client, assertion: assertion)
        var allHeaders = headers
        allHeaders.append(HTTPHeader("Accept", "application/json"))
        allHeaders += authentication.headers
        let fields = grant.fields + resources.map { ("resource", $0) } + authentication.fields
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
