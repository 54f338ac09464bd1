import Core
import HTTP

/// The checks of ARCHITECTURE.md "Security rules", in order: an error answer ends the run
/// (exit 4); then state must be ours and iss the expected issuer (exit 5),
/// before the code may be redeemed.
package struct ResponseChecks: Sendable {
    var expectedState: String
    var expectedIssuer: String?
    /// Discovery metadata said `authorization_response_iss_parameter_supported`.
    var issRequired: Bool

    package init(expectedState: String, expectedIssuer: String?, issRequired: Bool) {
        self.expectedState = expectedState
        self.expectedIssuer = expectedIssuer
        self.issRequired = issRequired
    }

    /// Returns the code once every check passed.
    package func verify(_ response: AuthorizationResponse, at location: String) throws(Failure) -> String {
        if let error = response.error {
            var message = "the authorization server answered error=\(ServerText.printable(error))"
            if let description = response.errorDescription, !description.isEmpty {
                message += ": \(ServerText.printable(description))"
            }
            throw Failure(.authorizationError, message, at: location)
        }
        guard let state = response.state else {
            throw Failure(.securityCheck, "the authorization response has no state; the code is not redeemed", at: location)
        }
        guard state == expectedState else {
            throw Failure(.securityCheck, "state mismatch: the authorization response is not for this request; the code is not redeemed", at: location)
        }
        if let expectedIssuer {
            if let iss = response.iss, iss != expectedIssuer {
                throw Failure(.securityCheck, "iss mismatch: expected '\(expectedIssuer)', got '\(ServerText.printable(iss))' (RFC 9207); the code is not redeemed", at: location)
            }
            if response.iss == nil && issRequired {
                throw Failure(.securityCheck, "the authorization response has no iss although the server's metadata promises it (RFC 9207); the code is not redeemed", at: location)
            }
        }
        guard let code = response.code, !code.isEmpty else {
            throw Failure(.malformedResponse, "the authorization response has neither code nor error", at: location)
        }
        return code
    }
}
