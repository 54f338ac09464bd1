/// The login templates of Keycloak the driver knows, by the names Keycloak
/// gives them (`pageId`; themes/src/main/resources/theme/base/login/*.ftl).
enum KeycloakPageID: String, Sendable {
    case login = "login.ftl"
    case username = "login-username.ftl"
    case password = "login-password.ftl"
    case otp = "login-otp.ftl"
    case selectAuthenticator = "select-authenticator.ftl"
    case webauthnAuthenticate = "webauthn-authenticate.ftl"
    case webauthnRegister = "webauthn-register.ftl"
    case webauthnError = "webauthn-error.ftl"
    case consent = "login-oauth-grant.ftl"
    case terms = "terms.ftl"
    case updatePassword = "login-update-password.ftl"
    case updateProfile = "login-update-profile.ftl"
    case verifyEmail = "login-verify-email.ftl"
    case configureTOTP = "login-config-totp.ftl"
    case pageExpired = "login-page-expired.ftl"
    case error = "error.ftl"
    case info = "info.ftl"
}
