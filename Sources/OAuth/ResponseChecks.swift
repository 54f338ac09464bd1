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
    package func verify(_ response: AuthorizationResponse, at location: String) throws(Failure) -> String {
        let what = response.error == nil ? "the authorization response" : "the error answer (its text is not shown: anyone can forge it)"
        guard let state = response.state else {
            throw Failure(.securityCheck, "\(what) has no state; the code is not redeemed", at: location)
        }
        guard state == expectedState else {
            throw Failure(.securityCheck, "state mismatch: \(what) is not for this request; the code is not redeemed", at: location)
        }
        if let error = response.error {
            var message = "the authorization server answered error=\(ServerText.printable(error))"
            if let description = response.errorDescription, !description.isEmpty {
                message += ": \(ServerText.printable(description))"
            }
            throw Failure(.authorizationError, message, at: location, reason: .authorizationServer(OAuthErrorCode(rawValue: error)))
        }
        try checkIss(response, at: location)
        guard let code = response.code, !code.isEmpty else {
            throw Failure(.malformedResponse, "the authorization response has neither code nor error", at: location)
        }
        return code
    }

    private func checkIss(_ response: AuthorizationResponse, at location: String) throws(Failure) {
        if let expectedIssuer {
            if let iss = response.iss, iss != expectedIssuer {
                throw Failure(.securityCheck, "iss mismatch: expected '\(expectedIssuer)', got '\(ServerText.printable(iss))' (RFC 9207); the code is not redeemed", at: location)
            }
            if response.iss == nil && issRequired {
                throw Failure(.securityCheck, "the authorization response has no iss although the server's metadata promises it (RFC 9207); the code is not redeemed", at: location)
            }
        } else if let iss = response.iss, let endpoint = authorizationEndpoint.flatMap({ URIReference($0)?.origin }),
                  URIReference(iss)?.origin != endpoint {
            throw Failure(.securityCheck, "iss '\(ServerText.printable(iss))' is not of the authorization endpoint's origin \(endpoint) (RFC 9207); the code is not redeemed",
                          at: location, hint: "If that issuer is right, pass --expect-iss with it.")
        }
    }
}
