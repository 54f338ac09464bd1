"""The English texts of Keycloak's login theme that the replica shows.

Keys and texts as in Keycloak's message bundle
(keycloak/keycloak themes/src/main/resources/theme/base/login/messages/
messages_en.properties); only the keys the replica's pages use. Texts go
through java.text.MessageFormat there, so `''` is one quote and `{0}` an
argument: msg() does the same.
"""
import re

MESSAGES = {
    # buttons and links
    "doLogIn": "Sign In",
    "doRegister": "Register",
    "doRegisterSecurityKey": "Register",
    "doCancel": "Cancel",
    "doSubmit": "Submit",
    "doYes": "Yes",
    "doNo": "No",
    "doContinue": "Continue",
    "doAccept": "Accept",
    "doDecline": "Decline",
    "doForgotPassword": "Forgot Password?",
    "doClickHere": "Click here",
    "doTryAgain": "Try again",
    "doTryAnotherWay": "Try Another Way",
    "backToApplication": "&laquo; Back to Application",
    "restartLoginTooltip": "Restart login",
    "logoutOtherSessions": "Sign out from other devices",
    # titles
    "loginAccountTitle": "Sign in to your account",
    "loginTitle": "Sign in to {0}",
    "loginTitleHtml": "{0}",
    "loginTotpTitle": "Mobile Authenticator Setup",
    "loginProfileTitle": "Update Account Information",
    "oauthGrantTitle": "Grant Access to {0}",
    "oauthGrantRequest": "Do you grant these access privileges?",
    "errorTitle": "We are sorry...",
    "emailVerifyTitle": "Email verification",
    "updatePasswordTitle": "Update password",
    "termsTitle": "Terms and Conditions",
    "termsText": "<p>Terms and conditions to be defined</p>",
    "pageExpiredTitle": "Page has expired",
    "loginChooseAuthenticator": "Select login method",
    "requiredFields": "Required fields",
    # labels
    "noAccount": "New user?",
    "username": "Username",
    "usernameOrEmail": "Username or email",
    "firstName": "First name",
    "lastName": "Last name",
    "email": "Email",
    "password": "Password",
    "passwordConfirm": "Confirm password",
    "passwordNew": "New Password",
    "showPassword": "Show password",
    "hidePassword": "Hide password",
    "rememberMe": "Remember me",
    "authenticatorCode": "One-time code",
    "loginOtpOneTime": "One-time code",
    # OTP setup
    "loginTotpStep1": "Install one of the following applications on your mobile:",
    "loginTotpStep2": "Open the application and scan this QR-Code:",
    "loginTotpStep3": "Enter the one-time code provided by the application and click Submit to finish the setup.",
    "loginTotpStep3DeviceName": "Provide a Device Name to help you manage your OTP devices.",
    "loginTotpManualStep2": "Open the application and enter the key:",
    "loginTotpManualStep3": "Use the following configuration values if the application allows setting them:",
    "loginTotpUnableToScan": "Unable to scan?",
    "loginTotpScanBarcode": "Scan QR-Code?",
    "loginTotpType": "Type",
    "loginTotpAlgorithm": "Algorithm",
    "loginTotpDigits": "Digits",
    "loginTotpInterval": "Interval",
    "loginTotpDeviceName": "Device Name",
    "loginTotp.totp": "Time-based",
    "totpAppFreeOTPName": "FreeOTP",
    "totpAppGoogleName": "Google Authenticator",
    "totpAppMicrosoftAuthenticatorName": "Microsoft Authenticator",
    # e-mail, expiry
    "emailVerifyInstruction1": "An email with instructions to verify your email address has been sent to your address {0}.",
    "emailVerifyInstruction2": "Haven''t received a verification code in your email?",
    "emailVerifyInstruction3": "to re-send the email.",
    "pageExpiredMsg1": "To restart the login process",
    "pageExpiredMsg2": "To continue the login process",
    # errors and warnings
    "invalidUserMessage": "Invalid username or password.",
    "invalidUsernameOrEmailMessage": "Invalid username or email.",
    "invalidPasswordMessage": "Invalid password.",
    "invalidEmailMessage": "Invalid email address.",
    "accountDisabledMessage": "Account is disabled, contact your administrator.",
    "accountTemporarilyDisabledMessage": "Account is temporarily disabled; contact your administrator or retry later.",
    "expiredCodeMessage": "Login timeout. Please sign in again.",
    "expiredActionMessage": "Action expired. Please continue with login now.",
    "loginTimeout": "Your login attempt timed out.  Login will start from the beginning.",
    "missingFirstNameMessage": "Please specify first name.",
    "missingLastNameMessage": "Please specify last name.",
    "missingEmailMessage": "Please specify email.",
    "missingPasswordMessage": "Please specify password.",
    "missingTotpMessage": "Please specify authenticator code.",
    "missingTotpDeviceNameMessage": "Please specify device name.",
    "notMatchPasswordMessage": "Passwords don''t match.",
    "invalidTotpMessage": "Invalid authenticator code.",
    "configureTotpMessage": "You need to set up Mobile Authenticator to activate your account.",
    "updateProfileMessage": "You need to update your user profile to activate your account.",
    "updatePasswordMessage": "You need to change your password to activate your account.",
    "verifyEmailMessage": "You need to verify your email address to activate your account.",
    "invalidCodeMessage": "An error occurred, please login again through your application.",
    "cookieNotFoundMessage": "Cookie not found. Please make sure cookies are enabled in your browser.",
    "clientNotFoundMessage": "Client not found.",
    "alreadyLoggedIn": "You are already logged in.",
    "invalidParameterMessage": "Invalid parameter: {0}",
    "invalidRequestMessage": "Invalid Request",
    "internalServerError": "An internal server error has occurred",
    # authenticators (select-authenticator.ftl)
    "otp-display-name": "Authenticator Application",
    "otp-help-text": "Enter a verification code from authenticator application.",
    "password-display-name": "Password",
    "password-help-text": "Sign in by entering your password.",
    "auth-username-password-form-display-name": "Username and password",
    "auth-username-password-form-help-text": "Sign in by entering your username and password.",
    # consent texts of the default client scopes
    "profileScopeConsentText": "User profile",
    "emailScopeConsentText": "Email address",
    "rolesScopeConsentText": "User roles",
    "offlineAccessScopeConsentText": "Offline Access",
    # WebAuthn
    "webauthn-display-name": "Passkey",
    "webauthn-help-text": "Use your Passkey to sign in.",
    "webauthn-passwordless-display-name": "Passkey",
    "webauthn-passwordless-help-text": "Use your Passkey for passwordless sign in.",
    "webauthn-login-title": "Passkey login",
    "webauthn-registration-title": "Passkey Registration",
    "webauthn-available-authenticators": "Available Passkeys",
    "webauthn-unsupported-browser-text": "WebAuthn is not supported by this browser. Try another one or contact your administrator.",
    "webauthn-doAuthenticate": "Sign in with Passkey",
    "webauthn-createdAt-label": "Created",
    "webauthn-registration-init-label": "Passkey (Default Label)",
    "webauthn-registration-init-label-prompt": "Please input your registered passkey''s label",
    "webauthn-error-title": "Passkey Error",
    "webauthn-error-registration": "Failed to register your Passkey.<br/> {0}",
    "webauthn-error-api-get": "Failed to authenticate by the Passkey.<br/> {0}",
    "webauthn-error-different-user": "First authenticated user is not the one authenticated by the Passkey.",
    "webauthn-error-auth-verification": "Passkey authentication result is invalid.<br/> {0}",
    "webauthn-error-register-verification": "Passkey registration result is invalid.<br/> {0}",
    "webauthn-error-user-not-found": "Unknown user authenticated by the Passkey.",
    "passkey-unsupported-browser-text": "Passkey is not supported by this browser. Try another one or contact your administrator.",
    "passkey-doAuthenticate": "Sign in with Passkey",
    # Kerberos
    "kerberosNotSetUp": "Kerberos is not set up.  You cannot login.",
}

_ARG = re.compile(r"\{(\d+)\}")


def msg(key: str, *args) -> str:
    """The text of `key` with its {n} arguments, '' read as one quote
    (java.text.MessageFormat); an unknown key stands for itself, as in
    Keycloak's themes."""
    text = MESSAGES.get(key)
    if text is None:
        return key
    text = _ARG.sub(lambda m: str(args[int(m.group(1))]) if int(m.group(1)) < len(args) else "", text)
    return text.replace("''", "'")


def advanced_msg(text: str) -> str:
    """advancedMsg: "${key}" is a message key, anything else is shown as is."""
    if text.startswith("${") and text.endswith("}"):
        return msg(text[2:-1])
    return text
