import Core
import HTTP

/// The checks on the authorization response, in the order that keeps a
/// forged answer from being believed: state first (RFC 6749 §10.12), so an
/// `error=` nobody can tie to this request is exit 5 and its text is never
/// shown (anyone can send a browser there with any description); then an
/// error (exit 4); then iss (RFC 9207 §2.4); only then may the code be
/// redeemed.
package struct ResponseChecks: Sendable {
    var expectedState: String
    var expectedIssuer: String?
    /// Discovery metadata said `authorization_response_iss_parameter_supported`.
    var issRequired: Bool
    /// With no issuer to expect, an `iss` must at least come from the
    /// authorization endpoint's origin (RFC 9207 §2.4: the issuer identifier
    /// is a URL of the server that answers).
    var authorizationEndpoint: String?

    package init(expectedState: String, expectedIssuer: String?, issRequired: Bool, authorizationEndpoint: String? = nil) {
        self.expectedState = expectedState
        self.expectedIssuer = expectedIssuer
        self.issRequired = issRequired
        self.authorizationEndpoint = authorizationEndpoint
    }

    /// Returns the code once every check passed.
    package func verify(_ response: AuthorizationResponse, at location: String) throws(OAuthError) -> String {
        let errorAnswer = response.error != nil
        guard let state = response.state else {
            throw .noState(errorAnswer: errorAnswer, at: location)
        }
        guard state == expectedState else {
            throw .stateMismatch(errorAnswer: errorAnswer, at: location)
        }
        if let error = response.error {
            let description = response.errorDescription.flatMap { $0.isEmpty ? nil : $0 }
            throw .authorizationServer(error: error, description: description, at: location)
        }
        try checkIss(response, at: location)
        guard let code = response.code, !code.isEmpty else {
            throw .noCode(at: location)
        }
        return code
    }

    private func checkIss(_ response: AuthorizationResponse, at location: String) throws(OAuthError) {
        if let expectedIssuer {
            if let iss = response.iss, iss != expectedIssuer {
                throw .issuerMismatch(expected: expectedIssuer, got: iss, at: location)
            }
            if response.iss == nil && issRequired {
                throw .issuerMissing(at: location)
            }
        } else if let iss = response.iss, let endpoint = authorizationEndpoint.flatMap({ URIReference($0)?.origin }),
                  URIReference(iss)?.origin != endpoint {
            throw .issuerNotOfEndpoint(iss: iss, origin: endpoint, at: location)
        }
    }
}
