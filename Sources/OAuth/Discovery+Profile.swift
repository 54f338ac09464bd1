import Core

/// The metadata members of the modern client profile: PAR (RFC 9126 §5)
/// and the endpoints for clients that present a certificate (RFC 8705 §5).
package struct ProfileMetadata: Equatable, Sendable {
    package var pushedAuthorizationRequestEndpoint: String?
    package var requirePushedAuthorizationRequests = false
    /// `mtls_endpoint_aliases`: metadata name (`token_endpoint`, …) → the
    /// URL to use instead when the client presents a certificate.
    package var mtlsEndpointAliases: [String: String] = [:]

    package init() {}

    init(json: JSONValue) {
        pushedAuthorizationRequestEndpoint = json["pushed_authorization_request_endpoint"]?.stringValue
        if case .bool(let required)? = json["require_pushed_authorization_requests"] { requirePushedAuthorizationRequests = required }
        if case .object(let aliases)? = json["mtls_endpoint_aliases"] {
            mtlsEndpointAliases = aliases.compactMapValues(\.stringValue)
        }
    }
}
