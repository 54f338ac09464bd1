"""The webauthn-register required actions (WebAuthnRegister.java and its
passwordless variant), verified by py_webauthn.

The page (webauthn-register.ftl) carries what webauthnRegister.js hands to
navigator.credentials.create: challenge, userid (base64url of the user's
id), username, signatureAlgorithms (COSE: ES256 -7, RS256 -257, the
policy's default), rpEntityName, rpId, attestationConveyancePreference,
authenticatorAttachment, requireResidentKey, userVerificationRequirement
("not specified" each by default), createTimeout, excludeCredentialIds.
The form `#register` posts clientDataJSON, attestationObject,
publicKeyCredentialId (base64url), authenticatorLabel, transports, error.
Errors go to webauthn-error.ftl with the verifier's text as the message's
argument (setError(errorCase, errorMessage) there, unlike the
authenticator); `isSetRetry` posted from it shows the page again.
"""
from html import escape

from . import keycloak_webauthn as wa
from .keycloak_messages import msg
from .keycloak_pages import Page, error_message, render
from .keycloak_state import WebAuthnCredential


def _policy_uv(ctx, passwordless):
    return ctx.settings.passwordless_user_verification if passwordless else ctx.settings.webauthn_user_verification


def challenge(ctx, passwordless):
    if not wa.available():
        return ctx.ex.send(501, "webauthn (py_webauthn) not installed\n")
    user = ctx.rr.users[ctx.tab.user]
    value = wa.new_challenge()
    ctx.tab.notes["WEBAUTHN_CHALLENGE"] = value
    attrs = {
        "challenge": value, "userid": wa.b64url(user.id.encode()), "username": user.username,
        "signatureAlgorithms": [-7, -257], "rpEntityName": "keycloak", "rpId": ctx.rp_id,
        "attestationConveyancePreference": "not specified", "authenticatorAttachment": "not specified",
        "requireResidentKey": "Yes" if passwordless else "not specified",
        "userVerificationRequirement": _policy_uv(ctx, passwordless), "createTimeout": 0,
        "excludeCredentialIds": "", "initLabel": msg("webauthn-registration-init-label"),
        "initLabelPrompt": msg("webauthn-registration-init-label-prompt"),
        "errmsg": msg("webauthn-unsupported-browser-text"),
    }
    if ctx.tab.notes.pop("WEBAUTHN_RETRY", False):
        attrs["isSetRetry"] = True
    return render(ctx, Page("webauthn-register.ftl", attrs=attrs))


def _error(ctx, key, detail):
    return render(ctx, Page("webauthn-error.ftl", message=error_message(key, escape(detail)),
                            attrs={"execution": ctx.tab.execution}))


def process(ctx, form, passwordless):
    if not wa.available():
        return ctx.ex.send(501, "webauthn (py_webauthn) not installed\n")
    if form.get("isSetRetry"):
        ctx.tab.notes["WEBAUTHN_RETRY"] = True
        return challenge(ctx, passwordless)
    if form.get("error"):
        return _error(ctx, "webauthn-error-register-verification", form["error"])
    stored_challenge = ctx.tab.notes.pop("WEBAUTHN_CHALLENGE", None)
    if stored_challenge is None:
        return _error(ctx, "webauthn-error-registration", "Registration ceremony has already been completed")
    verified, problem = wa.verify_registration(form, stored_challenge, ctx.rp_id, ctx.origin,
                                               _policy_uv(ctx, passwordless) == "required")
    if problem is not None:
        return _error(ctx, "webauthn-error-registration", problem)
    user = ctx.rr.users[ctx.tab.user]
    transports = tuple(t for t in (form.get("transports") or "").split(",") if t)
    label = form.get("authenticatorLabel") or msg("webauthn-registration-init-label")
    user.passkeys.append(WebAuthnCredential(verified.credential_id, verified.credential_public_key,
                                            verified.sign_count, label, passwordless, ctx.now(), transports))
    from . import keycloak_required_actions as actions  # noqa: PLC0415 (cycle)
    return actions.done(ctx, "webauthn-register-passwordless" if passwordless else "webauthn-register")
