import Core

/// The `error` and `error_description` of a refused request to a protected
/// resource (RFC 6750 §3): from the `WWW-Authenticate` challenge, else a
/// JSON error object. The only part of a userinfo refusal an error line
/// quotes (UserInfoResponse.swift).
package struct BearerError: Equatable, Sendable {
    package var error: String
    /// Nil when absent or empty.
    package var description: String?

    package init(error: String, description: String?) {
        self.error = error
        self.description = description?.isEmpty == true ? nil : description
    }
}
