import Core
import HTTP

/// A pushed authorization request (RFC 9126 §2.1): the authorization
/// parameters POSTed to the PAR endpoint with client authentication.
package struct PushedAuthorizationRequest: Sendable {
    package var endpoint: String
    /// The authorization parameters (or `client_id` and `request`), plus
    /// `dpop_jkt` with DPoP (RFC 9449 §10.1).
    package var parameters: [NameValue]
    package var authentication: ClientAuthentication

    package init(endpoint: String, parameters: [NameValue], authentication: ClientAuthentication) {
        self.endpoint = endpoint
        self.parameters = parameters
        self.authentication = authentication
    }

    /// Every name once (RFC 6749 §3.1): `client_id` is both an
    /// authorization parameter and part of the authentication.
    package func httpRequest() -> HTTPRequest {
        let names = Set(parameters.map(\.name))
        let fields = parameters.map { ($0.name, $0.value) } + authentication.fields.filter { !names.contains($0.0) }
        return .form(url: endpoint, fields: fields, headers: [HTTPHeader("Accept", "application/json")] + authentication.headers)
    }
}

/// The PAR endpoint's answer (RFC 9126 §2.2, §2.3). Its body is never
/// quoted (HTTP/Quoting/EndpointKind.swift): only the status and the `error` and
/// `error_description` of a well-formed error object.
package struct PushedAuthorizationResponse: Equatable, Sendable {
    package let requestURI: String
    package let expiresIn: Double?

    /// An OAuth error object is the authorization server refusing the
    /// request (like an `error=` answer); any other non-2xx is a failed
    /// push; a 2xx without a `request_uri` is malformed.
    package init(_ response: HTTPResponse, at location: String) throws(OAuthError) {
        if let error = OAuthErrorObject(response.body) {
            throw .pushRefused(status: response.status, error, at: location)
        }
        guard response.isSuccess else {
            throw .pushStatus(response.status, BodyQuote.of(response, from: .pushedAuthorization), at: location)
        }
        guard let json = JSONValue.parse(response.body), case .object = json,
              let requestURI = json["request_uri"]?.stringValue, !requestURI.isEmpty else {
            throw .pushNoRequestURI(status: response.status, BodyQuote.of(response, from: .pushedAuthorization), at: location)
        }
        self.requestURI = requestURI
        expiresIn = json["expires_in"]?.numberValue
    }
}
