"""What follows a successful authentication: required actions, then consent.

As AuthenticationManager.nextRequiredAction and LoginActionsService do:
each pending action (user's required actions in the realm's priority
order, then OAUTH_GRANT when the client needs consent) is reached by a 302
to login-actions/required-action?execution=<ACTION>&client_id&tab_id&client_data,
whose GET renders the action's page; its POST (with the page's
session_code) completes it, then the next 302 follows, or the answer to
the client. Per action (services/.../authentication/requiredactions/*.java):
TERMS_AND_CONDITIONS   terms.ftl; any POST without `cancel` accepts; cancel → error=access_denied
UPDATE_PASSWORD        login-update-password.ftl: password-new, password-confirm
UPDATE_PROFILE         login-update-profile.ftl: email, firstName, lastName (username read-only)
VERIFY_EMAIL           login-verify-email.ftl; completes only by the e-mail's link (not sent here)
CONFIGURE_TOTP         login-config-totp.ftl: totp, totpSecret (hidden), userLabel, mode
webauthn-register[-passwordless]  webauthn-register.ftl (keycloak_webauthn_register.py)
OAUTH_GRANT            login-oauth-grant.ftl, posted to login-actions/consent (keycloak_consent.py)
"""
import base64
import re
import secrets
import string

from . import keycloak_bruteforce as brute
from . import keycloak_webauthn_register as webauthn_register
from .keycloak_messages import msg
from .keycloak_pages import Page, render
from .keycloak_realm import ACTION_ORDER, credential_id
from .keycloak_state import OtpCredential

# A 1x1 PNG stands in for the QR code image (the secret is on the manual page).
QR_PLACEHOLDER = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVQI12P4DwABAQEAG7buVgAAAABJRU5ErkJggg=="
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _user(ctx):
    return ctx.rr.users[ctx.tab.user]


def pending_actions(ctx) -> list:
    user = _user(ctx)
    wanted = set(user.required_actions) | set(ctx.tab.notes.get("REQUIRED_ACTIONS", []))
    return [a for a in ACTION_ORDER if a in wanted]


def consent_needed(ctx) -> bool:
    if not ctx.scenario.consent:
        return False
    granted = ctx.rr.consents.get((ctx.tab.user, ctx.tab.client_id), set())
    return not set(requested_scopes(ctx)) <= granted


def requested_scopes(ctx) -> list:
    """The client scopes shown for consent: the default ones (profile, email,
    roles) and offline_access when asked for; openid shows nothing."""
    asked = ctx.tab.pending.scope.split()
    scopes = ["profile", "email", "roles"]
    return scopes + (["offline_access"] if "offline_access" in asked else [])


def complete(ctx):
    """The flow ended with a user: go on to what is still pending, or answer."""
    brute.success(ctx, _user(ctx))
    return next_step(ctx)


def next_step(ctx):
    tab = ctx.tab
    todo = pending_actions(ctx)
    nxt = todo[0] if todo else ("OAUTH_GRANT" if consent_needed(ctx) else None)
    if nxt is None:
        from . import keycloak_oidc  # noqa: PLC0415 (cycle: the answer to the client)
        return keycloak_oidc.finish(ctx)
    tab.action, tab.flow_path, tab.execution, tab.active_code = "REQUIRED_ACTIONS", "required-action", nxt, None
    return ctx.ex.redirect(302, ctx.action_url(with_code=False), ctx.headers)


def done(ctx, action):
    user = _user(ctx)
    if action in user.required_actions:
        user.required_actions.remove(action)
    if action in ctx.tab.notes.get("REQUIRED_ACTIONS", []):
        ctx.tab.notes["REQUIRED_ACTIONS"].remove(action)
    return next_step(ctx)


# ---- pages ---------------------------------------------------------------------------

def challenge(ctx):
    """GET of the current action's page."""
    action = ctx.tab.execution
    if action == "OAUTH_GRANT":
        return _consent_page(ctx)
    return CHALLENGES[action](ctx)


def process(ctx, form):
    return PROCESSES[ctx.tab.execution](ctx, form)


def _consent_page(ctx):
    scopes = {"profile": "profileScopeConsentText", "email": "emailScopeConsentText",
              "roles": "rolesScopeConsentText", "offline_access": "offlineAccessScopeConsentText"}
    oauth = {"code": ctx.tab.code(), "client": ctx.tab.client_id,
             "clientScopesRequested": [{"consentScreenText": "${" + scopes[s] + "}"}
                                       for s in requested_scopes(ctx)]}
    return render(ctx, Page("login-oauth-grant.ftl", attrs={"oauth": oauth}))


def _terms(ctx):
    user = _user(ctx)
    return render(ctx, Page("terms.ftl", attrs={"user": {"id": user.id, "username": user.username,
                                                         "email": user.email}}))


def _terms_post(ctx, form):
    if "cancel" in form:
        from . import keycloak_oidc  # noqa: PLC0415
        return keycloak_oidc.send_error(ctx, "access_denied")
    return done(ctx, "TERMS_AND_CONDITIONS")


def _password_page(ctx, errors=None):
    return render(ctx, Page("login-update-password.ftl", errors=errors or {},
                            message=("warning", msg("updatePasswordMessage")),
                            attrs={"username": ctx.tab.user}))


def _password_post(ctx, form):
    new, confirm = form.get("password-new") or "", form.get("password-confirm") or ""
    if not new:
        return _password_page(ctx, {"password": msg("missingPasswordMessage")})
    if new != confirm:
        return _password_page(ctx, {"password-confirm": msg("notMatchPasswordMessage")})
    _user(ctx).password = new
    return done(ctx, "UPDATE_PASSWORD")


def _profile_page(ctx, errors=None, values=None):
    user = _user(ctx)
    values = values or {"email": user.email, "firstName": user.first_name, "lastName": user.last_name}
    attributes = [{"name": "username", "displayName": "username", "value": user.username, "readOnly": True,
                   "required": True, "autocomplete": "username"}]
    for name, label, auto in (("email", "email", "email"), ("firstName", "firstName", "given-name"),
                              ("lastName", "lastName", "family-name")):
        attributes.append({"name": name, "displayName": label, "value": values.get(name, ""), "readOnly": False,
                           "required": True, "autocomplete": auto})
    return render(ctx, Page("login-update-profile.ftl", errors=errors or {},
                            message=("warning", msg("updateProfileMessage")),
                            attrs={"profile": {"attributes": attributes}}))


def _profile_post(ctx, form):
    values = {k: (form.get(k) or "").strip() for k in ("email", "firstName", "lastName")}
    errors = {}
    if not values["email"]:
        errors["email"] = msg("missingEmailMessage")
    elif not EMAIL.match(values["email"]):
        errors["email"] = msg("invalidEmailMessage")
    if not values["firstName"]:
        errors["firstName"] = msg("missingFirstNameMessage")
    if not values["lastName"]:
        errors["lastName"] = msg("missingLastNameMessage")
    if errors:
        return _profile_page(ctx, errors, values)
    user = _user(ctx)
    user.email, user.first_name, user.last_name = values["email"].lower(), values["firstName"], values["lastName"]
    return done(ctx, "UPDATE_PROFILE")


def _verify_page(ctx, form=None):
    return render(ctx, Page("login-verify-email.ftl", message=("warning", msg("verifyEmailMessage")),
                            attrs={"user": {"email": _user(ctx).email}}))


def _totp_page(ctx, errors=None):
    tab = ctx.tab
    secret = tab.notes.get("TOTP_SECRET")
    if secret is None:
        alphabet = string.ascii_letters + string.digits
        secret = tab.notes["TOTP_SECRET"] = "".join(secrets.choice(alphabet) for _ in range(20))
    encoded = base64.b32encode(secret.encode()).decode().rstrip("=")
    grouped = " ".join(encoded[i:i + 4] for i in range(0, len(encoded), 4))
    mode = ctx.ex.query_params.get("mode") or tab.notes.get("TOTP_MODE")
    if mode:
        tab.notes["TOTP_MODE"] = mode
    base = ctx.action_url(with_code=False)
    user = _user(ctx)
    totp = {"totpSecret": secret, "totpSecretEncoded": grouped, "totpSecretQrCode": QR_PLACEHOLDER,
            "qrUrl": base + "&mode=qr", "manualUrl": base + "&mode=manual",
            "supportedApplications": ["totpAppFreeOTPName", "totpAppGoogleName",
                                      "totpAppMicrosoftAuthenticatorName"],
            "policy": {"algorithm": "HmacSHA1", "digits": 6, "lookAheadWindow": 1, "type": "totp", "period": 30},
            "otpCredentials": [{"id": c.id, "userLabel": c.label} for c in user.otp]}
    attrs = {"totp": totp}
    if mode:
        attrs["mode"] = mode
    return render(ctx, Page("login-config-totp.ftl", errors=errors or {},
                            message=("warning", msg("configureTotpMessage")), attrs=attrs))


def _totp_post(ctx, form):
    import pyotp  # noqa: PLC0415
    user = _user(ctx)
    code = (form.get("totp") or "").strip()
    secret = form.get("totpSecret") or ""
    label = (form.get("userLabel") or "").strip()
    if not code:
        return _totp_page(ctx, {"totp": msg("missingTotpMessage")})
    good = secret == ctx.tab.notes.get("TOTP_SECRET") and pyotp.TOTP(
        base64.b32encode(secret.encode()).decode()).verify(code, valid_window=1)
    if not good:
        return _totp_page(ctx, {"totp": msg("invalidTotpMessage")})
    if user.otp and not label:
        return _totp_page(ctx, {"userLabel": msg("missingTotpDeviceNameMessage")})
    label = label or "Authenticator"
    user.otp.append(OtpCredential(credential_id(user.username, label + str(len(user.otp))), label,
                                  secret.encode(), ctx.now()))
    ctx.tab.notes.pop("TOTP_SECRET", None)
    return done(ctx, "CONFIGURE_TOTP")


CHALLENGES = {
    "TERMS_AND_CONDITIONS": _terms, "UPDATE_PASSWORD": _password_page, "UPDATE_PROFILE": _profile_page,
    "VERIFY_EMAIL": _verify_page, "CONFIGURE_TOTP": _totp_page,
    "webauthn-register": lambda ctx: webauthn_register.challenge(ctx, False),
    "webauthn-register-passwordless": lambda ctx: webauthn_register.challenge(ctx, True),
}
PROCESSES = {
    "TERMS_AND_CONDITIONS": _terms_post, "UPDATE_PASSWORD": _password_post, "UPDATE_PROFILE": _profile_post,
    "VERIFY_EMAIL": _verify_page, "CONFIGURE_TOTP": _totp_post,
    "webauthn-register": lambda ctx, form: webauthn_register.process(ctx, form, False),
    "webauthn-register-passwordless": lambda ctx, form: webauthn_register.process(ctx, form, True),
}
