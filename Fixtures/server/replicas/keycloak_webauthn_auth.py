"""WebAuthn as an authenticator: second factor and passwordless, as
services/.../authenticators/browser/WebAuthnAuthenticator.java does it.

authenticate() keeps a fresh challenge in the auth session and renders
webauthn-authenticate.ftl with challenge, rpId (the request's host),
userVerification (the policy), createTimeout, isUserIdentified and, when
the user is known, the allowed credentials (`#authn_select`). action()
reads what webauthnAuthenticate.js posts and answers like Keycloak:
- `error` set (navigator.credentials.get failed) → webauthn-error-api-get;
- a field missing → the same, "Missing compulsory webauthn parameters";
- userHandle of another user than the one identified → different-user;
- a credential id the user does not have (a foreign key) or an unknown
  user → webauthn-error-user-not-found, "Unknown user authenticated by the
  Passkey.";
- a failed verification (signature, challenge, origin, rpId, signCount) →
  webauthn-error-auth-verification.
Each error is webauthn-error.ftl, whose "Try again" posts this execution
again; the message's detail argument is empty there, as createErrorResponse
sets it ("", the detail only goes to the event log).
"""
import datetime

from . import keycloak_webauthn as wa
from .keycloak_authenticators import SUCCESS, Authenticator, Challenge
from .keycloak_messages import msg
from .keycloak_pages import Page, error_message


class WebAuthnAuthenticator(Authenticator):
    provider = "webauthn-authenticator"
    display_name, help_text = "webauthn-display-name", "webauthn-help-text"
    icon = "fa fa-key list-view-pf-icon-lg"
    passwordless = False
    required_action = "webauthn-register"

    def user_verification(self, ctx):
        return ctx.settings.webauthn_user_verification

    def configured_for(self, ctx, user):
        return bool(user and user.passkeys_of(self.passwordless))

    def attrs(self, ctx, identified=True):
        """fillContextForm: what the page's script needs."""
        challenge = wa.new_challenge()
        ctx.tab.notes["WEBAUTHN_CHALLENGE"] = challenge
        user = ctx.rr.users.get(ctx.tab.user) if ctx.tab.user and identified else None
        attrs = {"challenge": challenge, "rpId": ctx.rp_id, "createTimeout": 0,
                 "userVerification": self.user_verification(ctx),
                 "isUserIdentified": "true" if user else "false",
                 "shouldDisplayAuthenticators": user is not None,
                 "errmsg": msg("webauthn-unsupported-browser-text")}
        if user is not None:
            attrs["authenticators"] = {"authenticators": [
                {"credentialId": wa.b64url(c.credential_id), "label": c.label,
                 "createdAt": datetime.datetime.fromtimestamp(c.created, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
                 "transports": {"iconClass": "kcWebAuthnInternal", "displayNameProperties": ["internal"]}}
                for c in user.passkeys_of(self.passwordless)]}
        return attrs

    def conditional_attrs(self, ctx):
        """passkeys.ftl on the username page: no user known yet."""
        return {**self.attrs(ctx, identified=False), "enableWebAuthnConditionalUI": True}

    def authenticate(self, ctx):
        return Challenge(Page("webauthn-authenticate.ftl", attrs=self.attrs(ctx)))

    def _error(self, ctx, key, *args):
        return Challenge(Page("webauthn-error.ftl", message=error_message(key, *args),
                              attrs={"execution": self.execution}), True)

    def action(self, ctx, form):
        if (form.get("error") or "").strip():
            return self._error(ctx, "webauthn-error-api-get", "")
        if any(not (form.get(k) or "").strip() for k in ("credentialId", "clientDataJSON", "authenticatorData", "signature")):
            return self._error(ctx, "webauthn-error-api-get", "")
        known = ctx.rr.users.get(ctx.tab.user) if ctx.tab.user else None
        handle = (form.get("userHandle") or "").strip()
        if not handle:
            if known is None:
                return self._error(ctx, "webauthn-error-user-not-found")
            uid = known.id
        else:
            try:
                uid = wa.b64url_decode(handle).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                uid = ""
            if known is not None and known.id != uid:
                return self._error(ctx, "webauthn-error-different-user")
        user = ctx.rr.user_by_id(uid)
        if user is None:
            return self._error(ctx, "webauthn-error-user-not-found")
        try:
            raw_id = wa.b64url_decode(form["credentialId"])
        except ValueError:
            raw_id = b""
        stored = next((c for c in user.passkeys_of(self.passwordless) if c.credential_id == raw_id), None)
        if stored is None:
            return self._error(ctx, "webauthn-error-user-not-found")
        count, problem = wa.verify_assertion(form, stored, ctx.tab.notes.get("WEBAUTHN_CHALLENGE", ""),
                                             ctx.rp_id, ctx.origin, self.user_verification(ctx) == "required")
        if problem is not None:
            ctx.tab.notes["WEBAUTHN_LAST_ERROR"] = problem     # Keycloak logs it; the page does not show it
            return self._error(ctx, "webauthn-error-auth-verification", "")
        stored.sign_count = count
        ctx.tab.user = user.username
        return SUCCESS


class WebAuthnPasswordless(WebAuthnAuthenticator):
    provider = "webauthn-authenticator-passwordless"
    display_name, help_text = "webauthn-passwordless-display-name", "webauthn-passwordless-help-text"
    passwordless = True
    required_action = "webauthn-register-passwordless"

    def user_verification(self, ctx):
        return ctx.settings.passwordless_user_verification
