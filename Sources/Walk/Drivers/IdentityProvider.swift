/// The providers authcode has a login driver for (README "Identity providers"), as `--idp`
/// names them, and the two settings that are not a provider.
package enum IdentityProvider: String, CaseIterable, Sendable, Equatable {
    /// Recognise each provider's pages by what its server sends (the default).
    case auto
    /// No driver: the generic HTML walk only.
    case none
    case keycloak
    case glewlwyd
    case authentik
    case okta
    case entra
    case auth0
}

extension IdentityProvider {
    /// The provider's name as its users know it, for messages.
    package var displayName: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        case .keycloak: "Keycloak"
        case .glewlwyd: "Glewlwyd"
        case .authentik: "Authentik"
        case .okta: "Okta"
        case .entra: "Microsoft Entra ID"
        case .auth0: "Auth0"
        }
    }
}

extension IdentityProvider {
    /// Whether authcode's driver for it answers WebAuthn with `--passkey`
    /// (README "Passkeys"): a hint offers a passkey only where one would work.
    package var answersPasskeys: Bool {
        switch self {
        case .keycloak, .glewlwyd, .authentik: true
        case .auto, .none, .okta, .entra, .auth0: false
        }
    }
}
