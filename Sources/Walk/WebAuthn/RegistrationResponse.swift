/// What `navigator.credentials.create` returns (WebAuthn Level 3 §5.2.1,
/// AuthenticatorAttestationResponse, with the new credential's raw ID), as
/// bytes for the driver to encode.
package struct RegistrationResponse: Sendable, Equatable {
    package var credentialID: [UInt8]
    package var clientDataJSON: [UInt8]
    /// CBOR `{"fmt": "none", "attStmt": {}, "authData": …}` (§6.5.4, §8.7).
    package var attestationObject: [UInt8]
    /// The authData inside it (`getAuthenticatorData()`, §5.2.1.1), which
    /// some relying parties take on its own.
    package var authenticatorData: [UInt8]
    /// `getPublicKeyAlgorithm()`: ES256, -7.
    package var publicKeyAlgorithm: Int
}
