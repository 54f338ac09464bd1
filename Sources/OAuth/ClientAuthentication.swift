import Core
import HTTP

/// What authenticates the client on one back-channel request (the token
/// endpoint, RFC 6749 §2.3; the PAR endpoint, RFC 9126 §2): form fields
/// and headers, by `--auth-method`. An assertion is made per request by
/// the caller (ClientAssertion.swift), so a retried request carries a new one.
package struct ClientAuthentication: Sendable {
    package var fields: [(String, String)] = []
    package var headers: [HTTPHeader] = []

    /// - Parameter assertion: the signed assertion for this request, for
    ///   `private_key_jwt` and `client_secret_jwt`.
    package init(_ client: ClientCredentials, assertion: String?) {
        switch client.method {
        case .clientSecretBasic:
            headers.append(HTTPHeader("Authorization", TokenRequest.basicAuthorization(clientID: client.id, secret: client.secret ?? "")))
        case .clientSecretPost:
            fields = [("client_id", client.id), ("client_secret", client.secret ?? "")]
        case .clientSecretJWT, .privateKeyJWT:
            // RFC 7521 §4.2 allows client_id beside the assertion, and some
            // servers (Glewlwyd) require it.
            fields = [("client_id", client.id), ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion ?? "")]
        case .none, .tlsClientAuth, .selfSignedTLSClientAuth:
            // RFC 8705 §2: the certificate on the connection proves the client.
            fields = [("client_id", client.id)]
        }
    }
}
