"""The authenticators of the replica's browser flow, as Keycloak's
services/src/main/java/org/keycloak/authentication/authenticators/browser/
{AbstractUsernameFormAuthenticator,UsernamePasswordForm,UsernameForm,
PasswordForm,OTPFormAuthenticator,SpnegoAuthenticator}.java decide:
which field an error belongs to, which failures count for brute-force
detection, which text is shown. WebAuthn is in keycloak_webauthn_auth.py.

authenticate() renders the challenge; action() reads the posted form and
returns SUCCESS, ATTEMPTED, a Challenge (a page), or CANCEL.
"""
import base64
import hashlib
import time
from dataclasses import dataclass

from . import keycloak_bruteforce as brute
from .keycloak_messages import msg
from .keycloak_pages import Page, error_message

SUCCESS, ATTEMPTED, CANCEL = "success", "attempted", "cancel"


@dataclass
class Challenge:
    page: Page
    failed: bool = False      # failureChallenge: the flow counts it (events)


class Authenticator:
    provider = ""
    display_name = help_text = icon = ""
    requires_user = True
    passwordless = False

    def __init__(self, execution_id):
        self.execution = execution_id

    def configured_for(self, ctx, user) -> bool:
        return True

    def authenticate(self, ctx):
        raise NotImplementedError

    def action(self, ctx, form):
        raise NotImplementedError


def _user(ctx):
    return ctx.rr.users.get(ctx.tab.user) if ctx.tab.user else None


def _login_page(template, ctx, username="", errors=None, message=None, show_username=False, status=200):
    attrs = {"login": {"username": username} if username else {}, "registrationDisabled": True,
             "social": {"displayInfo": True}}
    if ctx.tab.notes.get("PASSKEYS"):
        attrs.update(ctx.tab.notes["PASSKEYS"])
    return Page(template, attrs=attrs, errors=errors or {}, message=message, show_username=show_username,
                status=status)


class UsernamePasswordForm(Authenticator):
    provider = "auth-username-password-form"
    display_name, help_text = "auth-username-password-form-display-name", "auth-username-password-form-help-text"
    icon = "fa fa-unlock list-view-pf-icon-lg"
    requires_user = False
    template = "login.ftl"

    def authenticate(self, ctx):
        username = ctx.tab.notes.get("ATTEMPTED_USERNAME") or ctx.tab.pending.data.get("login_hint", "")
        return Challenge(_login_page(self.template, ctx, username))

    def _again(self, ctx, username, field, key, failed=True, **kw):
        text = msg(key)
        return Challenge(_login_page(self.template, ctx, username, errors={field: text}, **kw), failed)

    def action(self, ctx, form):
        if "cancel" in form:
            return CANCEL
        ctx.tab.user = None
        username = (form.get("username") or "").strip()
        if not username:
            return self._again(ctx, "", "username", "invalidUserMessage")
        ctx.tab.notes["ATTEMPTED_USERNAME"] = username
        user = ctx.rr.find_user(username)
        if user is None:
            return self._again(ctx, username, "username", "invalidUserMessage")
        password = form.get("password") or ""
        if not password:
            return self._again(ctx, username, "password", "invalidUserMessage", failed=False)
        if brute.disabled(ctx, user):
            return self._again(ctx, username, "username", brute.message(ctx), failed=False)
        if not brute.check_password(ctx, user, password):
            return self._again(ctx, username, "password", "invalidUserMessage")
        if not user.enabled:
            return Challenge(_login_page(self.template, ctx, username, message=error_message("accountDisabledMessage")))
        ctx.tab.user = user.username
        return SUCCESS


class UsernameForm(UsernamePasswordForm):
    """Username first (login-username.ftl); with passkeys on, the page also
    carries passkeys.ftl's form and a posted assertion signs the user in."""
    provider = "auth-username-form"
    display_name, help_text = "auth-username-form-display-name", "auth-username-form-help-text"
    template = "login-username.ftl"

    def __init__(self, execution_id, passkeys=None):
        super().__init__(execution_id)
        self.passkeys = passkeys       # a WebAuthn passwordless authenticator, or None

    def authenticate(self, ctx):
        if self.passkeys is not None:
            ctx.tab.notes["PASSKEYS"] = self.passkeys.conditional_attrs(ctx)
        return super().authenticate(ctx)

    def action(self, ctx, form):
        if self.passkeys is not None and ("authenticatorData" in form or form.get("error")):
            result = self.passkeys.action(ctx, form)
            if result == SUCCESS:
                ctx.tab.notes["PASSKEY_DONE"] = True
            return result
        ctx.tab.user = None
        username = (form.get("username") or "").strip()
        if username:
            ctx.tab.notes["ATTEMPTED_USERNAME"] = username
        user = ctx.rr.find_user(username) if username else None
        if user is None:
            return self._again(ctx, username, "username", "invalidUsernameOrEmailMessage")
        if brute.disabled(ctx, user):
            return self._again(ctx, username, "username", brute.message(ctx), failed=False)
        if not user.enabled:
            return Challenge(_login_page(self.template, ctx, username, message=error_message("accountDisabledMessage")))
        ctx.tab.user = user.username
        ctx.tab.notes["USER_SET_BEFORE_USERNAME_PASSWORD_AUTH"] = True
        return SUCCESS


class PasswordForm(Authenticator):
    provider = "auth-password-form"
    display_name, help_text = "password-display-name", "password-help-text"
    icon = "fa fa-unlock list-view-pf-icon-lg"

    def authenticate(self, ctx):
        return Challenge(Page("login-password.ftl", show_username=True))

    def _again(self, ctx, key, failed=True):
        return Challenge(Page("login-password.ftl", errors={"password": msg(key)}, show_username=True), failed)

    def action(self, ctx, form):
        user = _user(ctx)
        password = form.get("password") or ""
        if not password:
            return self._again(ctx, "invalidPasswordMessage", failed=False)
        if brute.disabled(ctx, user):
            return self._again(ctx, brute.message(ctx), failed=False)
        if not brute.check_password(ctx, user, password):
            return self._again(ctx, "invalidPasswordMessage")
        return SUCCESS


class OTPForm(Authenticator):
    provider = "auth-otp-form"
    display_name, help_text = "otp-display-name", "otp-help-text"
    icon = "fa fa-mobile list-view-pf-icon-lg"

    def configured_for(self, ctx, user):
        return bool(user and user.otp)

    def _page(self, ctx, selected, errors=None):
        user = _user(ctx)
        creds = [{"id": c.id, "userLabel": c.label} for c in user.otp]
        return Page("login-otp.ftl", attrs={"otpLogin": {"userOtpCredentials": creds, "selectedCredentialId": selected}},
                    errors=errors or {})

    def authenticate(self, ctx):
        return Challenge(self._page(ctx, _user(ctx).otp[0].id))

    def action(self, ctx, form):
        import pyotp  # noqa: PLC0415 (checked by keycloak.py before the flow runs)
        user = _user(ctx)
        selected = form.get("selectedCredentialId") or user.otp[0].id
        if brute.disabled(ctx, user):
            return Challenge(self._page(ctx, selected, {"totp": msg(brute.message(ctx))}))
        code = form.get("otp")
        if code is None:
            return Challenge(self._page(ctx, selected))
        cred = next((c for c in user.otp if c.id == selected), None)
        step = None
        if cred is not None:
            totp = pyotp.TOTP(base64.b32encode(cred.secret).decode(), digest=hashlib.sha1)
            for offset in (0, -1, 1):     # look-ahead window 1 (Keycloak's default OTP policy)
                at = time.time() + offset * 30   # the real clock: time_offset ages sessions only
                if totp.at(at) == code.strip():
                    step = int(at // 30)
                    break
        reused = step is not None and (cred.id, step) in user.used_otp and not ctx.settings.otp_code_reusable
        if step is None or reused:
            brute.failure(ctx, user)
            return Challenge(self._page(ctx, selected, {"totp": msg("invalidTotpMessage")}), True)
        user.used_otp.add((cred.id, step))
        return SUCCESS


class SpnegoAuthenticator(Authenticator):
    """Kerberos, ALTERNATIVE: without a ticket the browser gets 401 +
    `WWW-Authenticate: Negotiate` and a page whose form (submitted by its
    onload script, or by hand without JavaScript) goes on to the next
    alternative, the password form (optionalChallengeRedirect)."""
    provider = "auth-spnego"
    requires_user = False

    def authenticate(self, ctx):
        return "spnego"

    def action(self, ctx, form):
        return ATTEMPTED
