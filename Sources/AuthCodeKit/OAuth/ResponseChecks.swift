/// The checks of DESIGN.md §4 step 4, in order: an error answer ends the run
/// (exit 4); then state must be ours and iss the expected issuer (exit 5),
/// before the code may be redeemed.
public struct ResponseChecks: Sendable {
    public var expectedState: String
    public var expectedIssuer: String?
    /// Discovery metadata said `authorization_response_iss_parameter_supported`.
    public var issRequired: Bool

    public init(expectedState: String, expectedIssuer: String?, issRequired: Bool) {
        self.expectedState = expectedState
        self.expectedIssuer = expectedIssuer
        self.issRequired = issRequired
    }

    /// Returns the code once every check passed.
    public func verify(_ response: AuthorizationResponse, at location: String) throws(Failure) -> String {
        if let error = response.error {
            var message = "the authorization server answered error=\(Self.printable(error))"
            if let description = response.errorDescription, !description.isEmpty {
                message += ": \(Self.printable(description))"
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
                throw Failure(.securityCheck, "iss mismatch: expected '\(expectedIssuer)', got '\(Self.printable(iss))' (RFC 9207); the code is not redeemed", at: location)
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

    /// Server-supplied text for one error line: no control characters, bounded.
    static func printable(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return cleaned.count > 300 ? String(cleaned.prefix(300)) + "…" : cleaned
    }
}
