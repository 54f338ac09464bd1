import Core

/// Keycloak's messages as a person reads them: some carry markup
/// (`webauthn-error-registration` is "Failed to register your
/// Passkey.<br/> {0}") and entities, which go; one line.
enum KeycloakText {
    static func plain(_ text: String) -> String {
        VisibleText.of(Array(text.utf8), html: true)
    }
}
