import Core
import JOSE

/// The run's passkey as a login driver meets it (README "Identity providers", §13): a
/// driver hands over what the page or API asked, as bytes and strings, and
/// gets the answer's fields as bytes to encode for its provider. Without
/// `--passkey` there is no store, and every question is `.noPasskey`.
package struct Passkey {
    let store: (any PasskeyStore)?

    package init(store: (any PasskeyStore)? = nil) {
        self.store = store
    }

    /// Whether the run has a passkey at all (a driver may offer another
    /// factor first when it has none).
    package var isAvailable: Bool { store != nil }

    /// `navigator.credentials.get`: the counter advanced and saved before
    /// the answer is returned.
    package func get(_ request: AssertionRequest) throws(WebAuthnError) -> AssertionResponse {
        guard let store else { throw .noPasskey }
        return try store.update { (credential: PasskeyCredential) throws(WebAuthnError) in
            try SoftwareAuthenticator.assertion(request, with: credential)
        }
    }

    /// Throws unless a registration may save a credential (`--passkey` with
    /// `--passkey-register`, FILE not there yet): a driver asks before it
    /// makes the server start one.
    package func checkRegistration() throws(WebAuthnError) {
        guard let store else { throw .registrationNotAllowed(path: nil) }
        try store.checkRegistration()
    }

    /// `navigator.credentials.create`: a fresh P-256 key and a random
    /// credential ID, saved before the answer is returned.
    package func create(_ request: RegistrationRequest) throws(WebAuthnError) -> RegistrationResponse {
        guard let store else { throw .registrationNotAllowed(path: nil) }
        try store.checkRegistration()
        let key: SigningKey
        do throws(JOSEError) {
            key = try SigningKey.generate(curve: .p256)
        } catch {
            throw .signing(error)
        }
        let (response, credential) = try SoftwareAuthenticator.registration(
            request, key: key, credentialID: Randomness.bytes(PasskeyCredential.newCredentialIDLength))
        try store.create(credential)
        return response
    }
}
