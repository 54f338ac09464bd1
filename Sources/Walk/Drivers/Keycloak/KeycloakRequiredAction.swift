/// The required actions a Keycloak login may stop at because only the
/// person can take them, by the names Keycloak gives them
/// (`UserModel.RequiredAction`, the `execution` of
/// `login-actions/required-action`), as the error line says them. Terms and
/// conditions, consent and passkey registration are done, not stopped at.
enum KeycloakRequiredAction {
    static let stops: [String: String] = [
        "UPDATE_PASSWORD": "update the password (UPDATE_PASSWORD)",
        "UPDATE_PROFILE": "update the profile (UPDATE_PROFILE)",
        "VERIFY_EMAIL": "verify the e-mail address (VERIFY_EMAIL)",
        "CONFIGURE_TOTP": "set up an authenticator app (CONFIGURE_TOTP)",
        "UPDATE_EMAIL": "update the e-mail address (UPDATE_EMAIL)",
        "VERIFY_PROFILE": "complete the profile (VERIFY_PROFILE)",
        "CONFIGURE_RECOVERY_AUTHN_CODES": "set up recovery codes (CONFIGURE_RECOVERY_AUTHN_CODES)",
        "delete_account": "confirm deleting the account (delete_account)",
        "delete_credential": "confirm deleting a credential (delete_credential)",
    ]

    /// The templates of those actions, for pages reached without the
    /// required-action URL (a Keycloakify page names only its template).
    static let pages: [KeycloakPageID: String] = [
        .updatePassword: "UPDATE_PASSWORD", .updateProfile: "UPDATE_PROFILE", .verifyEmail: "VERIFY_EMAIL", .configureTOTP: "CONFIGURE_TOTP",
    ]

    /// What the error line says of the page's action, if authcode stops there.
    static func stop(at page: KeycloakPage) -> String? {
        if let action = page.requiredAction, let said = stops[action] { return said }
        return page.known.flatMap { pages[$0] }.flatMap { stops[$0] }
    }
}
