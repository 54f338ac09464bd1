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
/// quoted (HTTP/EndpointKind.swift): only the status and the `error` and
/// `error_description` of a well-formed error object.
package struct PushedAuthorizationResponse: Equatable, Sendable {
    package let requestURI: String
    package let expiresIn: Double?

    /// An OAuth error object is exit 4 (the authorization server refused
    /// the request, like an `error=` answer), any other non-2xx exit 7, a
    /// 2xx without a `request_uri` exit 8.
    package init(_ response: HTTPResponse, at location: String) throws(Failure) {
        if let error = OAuthErrorObject(response.body) {
            throw Failure(.authorizationError, "the pushed authorization request endpoint refused: \(response.status) \(error.text)", at: location,
                          reason: .authorizationServer(OAuthErrorCode(rawValue: error.error)))
        }
        guard response.isSuccess else {
            throw Failure(.tokenEndpoint, "the pushed authorization request endpoint answered \(response.status)"
                          + BodyInMessage.of(response, from: .pushedAuthorization), at: location)
        }
        guard let json = JSONValue.parse(response.body), case .object = json,
              let requestURI = json["request_uri"]?.stringValue, !requestURI.isEmpty else {
            throw Failure(.malformedResponse, "the pushed authorization request endpoint's answer has no request_uri: \(response.status)"
                          + BodyInMessage.of(response, from: .pushedAuthorization), at: location)
        }
        self.requestURI = requestURI
        expiresIn = json["expires_in"]?.numberValue
    }
}
