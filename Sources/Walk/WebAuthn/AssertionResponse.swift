/// What `navigator.credentials.get` returns (WebAuthn Level 3 §5.2.2,
/// AuthenticatorAssertionResponse, with the credential's raw ID), as bytes:
/// the driver encodes them as its provider wants (base64url for Keycloak's
/// form, standard base64 for Glewlwyd's API).
package struct AssertionResponse: Sendable, Equatable {
    package var credentialID: [UInt8]
    package var clientDataJSON: [UInt8]
    package var authenticatorData: [UInt8]
    /// ECDSA P-256 over authenticatorData ‖ SHA-256(clientDataJSON), X9.62
    /// DER (§6.5.5).
    package var signature: [UInt8]
    package var userHandle: [UInt8]
    /// The count authenticatorData carries, now in the file.
    package var signCount: UInt32
}
