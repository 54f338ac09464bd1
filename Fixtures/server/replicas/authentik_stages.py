"""The stages of the replica's flows, as authentik/stages/*/stage.py run them.

Each stage has get(ctx, plan) and post(ctx, plan, data) returning
("challenge", obj), ("ok",) (stage_ok), ("invalid", message)
(stage_invalid: access denied) or ("redirect", url).

identification  (identification/stage.py) uid_field (email or username,
                case-insensitive); unknown user: with pretend_user_exists
                (the default) the flow goes on to the password stage, else
                non_field_errors "Failed to authenticate."; with the password
                merged in: `password` too, "Failed to authenticate." on a
                wrong one; a passkey (`passkey`) signs the user in.
password        (password/stage.py, newest) `password`; wrong: field error
                "Invalid password"; after failed_attempts_before_cancel
                failed logins in this flow (reputation score) access denied
                "Invalid password"; a locked user: access denied with the
                lockout text or "Invalid password".
user_login      logs the session in (new session key, new CSRF token);
                asks `remember_me` when remember_me_offset is set.
consent         `token` must echo the challenge's, else it is shown again.
fulfillment     the OAuth2 provider's answer: redirect_uri?code=&state=.
Authenticator validation is in authentik_validate.py.
"""
import secrets
import uuid
from urllib.parse import urlencode

from exchange import add_params

from . import authentik_webauthn as wa
from .authentik_challenges import challenge, error

OK = ("ok",)
BACKEND = "authentik.core.auth.InbuiltBackend"


def _required(data, field):
    """DRF's CharField: missing → required, "" → blank (None when fine)."""
    if field not in data or data[field] is None:
        return {field: error("This field is required.", "required")}
    if not isinstance(data[field], str) or not data[field]:
        return {field: error("This field may not be blank.", "blank")}
    return None


# ---- identification --------------------------------------------------------------------

def identification_get(ctx, plan, errors=None):
    s = ctx.settings
    fields = {"user_fields": ["email", "username"], "password_fields": s.password_in_identification,
              "allow_show_password": False, "application_pre": plan["context"].get("application"),
              "flow_designation": "authentication", "captcha_stage": None, "primary_action": "Log in",
              "sources": [], "show_source_labels": False, "enable_remember_me": True, "passkey_challenge": None}
    if fields["application_pre"] is None:
        del fields["application_pre"]
    if s.passkey_login and wa.available():
        options, raw = wa.options(ctx.rp_id, [], s.webauthn_user_verification)
        ctx.session.data["webauthn_challenge"] = raw
        fields["passkey_challenge"] = options
    return ("challenge", challenge(ctx, plan, "ak-stage-identification", fields, errors))


def identification_post(ctx, plan, data):
    s, context = ctx.settings, plan["context"]
    if data.get("passkey"):
        from .authentik_validate import check_webauthn  # noqa: PLC0415
        device, problem = check_webauthn(ctx, data["passkey"], None)
        if problem:
            return identification_get(ctx, plan, {"passkey": error(problem)})
        context["pending_user"], context["backend"] = device.user, "auth_webauthn_pwl"
        return OK
    uid = data.get("uid_field")
    if not uid:
        return identification_get(ctx, plan, {"non_field_errors": error("No identification data provided.")})
    user = ctx.rr.find_user(uid)
    if user is None:
        ctx.rr.failed_login(uid)
        context["pending_user"] = {"username": uid, "email": uid}
        if s.pretend_user_exists and not s.password_in_identification:
            return OK
        return identification_get(ctx, plan, {"non_field_errors": error("Failed to authenticate.")})
    if s.password_in_identification:
        if data.get("password") != user.password or user.locked:
            ctx.rr.failed_login(user.username)
            return identification_get(ctx, plan, {"non_field_errors": error("Failed to authenticate.")})
        context["backend"] = BACKEND
    context["pending_user"] = user.username
    return OK


# ---- password -----------------------------------------------------------------------------

def password_applies(ctx, plan):
    """The default flow's policy on this binding: only when no backend authenticated the user yet."""
    return not plan["context"].get("backend")


def _score(ctx, plan):
    pending = plan["context"].get("pending_user")
    name = pending if isinstance(pending, str) else (pending or {}).get("username", "")
    return ctx.rr.reputation.get(name, 0), name


def password_get(ctx, plan, errors=None):
    plan["context"].setdefault("initial_score", _score(ctx, plan)[0])
    return ("challenge", challenge(ctx, plan, "ak-stage-password", {"allow_show_password": False}, errors,
                                   with_user=True))


def password_post(ctx, plan, data):
    s, context = ctx.settings, plan["context"]
    problem = _required(data, "password")
    if problem:
        return password_get(ctx, plan, problem)
    pending = context.get("pending_user")
    user = ctx.rr.users.get(pending) if isinstance(pending, str) else None
    text = "Invalid password"
    if user is not None and user.locked:
        context["user_locked"] = True
    elif user is None or data["password"] != user.password:
        ctx.rr.failed_login(_score(ctx, plan)[1])
        if user is not None and s.failed_attempts_before_lockout:
            user.failed_attempts += 1
            user.locked = user.failed_attempts >= s.failed_attempts_before_lockout
            context["user_locked"] = user.locked
    else:
        user.failed_attempts = 0
        context["backend"] = BACKEND
        return OK
    # PasswordStageView.challenge_invalid
    if context.pop("user_locked", False):
        lockout = ("Your account has been locked out due to too many failed attempts. "
                   "Please contact your administrator.")
        return ("invalid", lockout if s.show_lockout_message else text)
    initial = context.setdefault("initial_score", 0)
    if initial - _score(ctx, plan)[0] >= s.failed_attempts_before_cancel:
        return ("invalid", text)
    return password_get(ctx, plan, {"password": error(text)})


# ---- user login -----------------------------------------------------------------------------

def _login(ctx, plan):
    """UserLoginStageView.do_login: Django's login() — a new session key, a new CSRF token."""
    ctx.session.user = plan["context"]["pending_user"]
    ctx.rr.cycle(ctx.session)
    ctx.set_csrf_cookie(value=secrets.token_hex(16))
    return OK


def user_login_get(ctx, plan, errors=None):
    if not isinstance(plan["context"].get("pending_user"), str):
        return ("invalid", "No Pending user to login.")
    if ctx.settings.remember_me_offset <= 0:
        return _login(ctx, plan)
    return ("challenge", challenge(ctx, plan, "ak-stage-user-login", {}, errors, with_user=True))


def user_login_post(ctx, plan, data):
    if not isinstance(data.get("remember_me"), bool):
        return user_login_get(ctx, plan, {"remember_me": error("This field is required.", "required")})
    return _login(ctx, plan)


# ---- consent ---------------------------------------------------------------------------------

def consent_get(ctx, plan, errors=None):
    context = plan["context"]
    perms = context.get("consent_permissions", [])
    key = (ctx.session.user, context.get("application"))
    if ctx.settings.consent_mode == "permanent" and key in ctx.rr.consents:
        granted = ctx.rr.consents[key]
        if {p["id"] for p in perms} <= granted:
            return OK
    token = str(uuid.uuid4())
    ctx.session.data["consent_token"] = token
    fields = {"header_text": context.get("consent_header", ""), "permissions": perms,
              "additional_permissions": [], "token": token}
    return ("challenge", challenge(ctx, plan, "ak-stage-consent", fields, errors, with_user=True))


def consent_post(ctx, plan, data):
    problem = _required(data, "token")
    if problem:
        return consent_get(ctx, plan, problem)
    if data["token"] != ctx.session.data.get("consent_token"):
        return consent_get(ctx, plan)
    if ctx.settings.consent_mode == "permanent":
        key = (ctx.session.user, plan["context"].get("application"))
        ctx.rr.consents[key] = {p["id"] for p in plan["context"].get("consent_permissions", [])}
    return OK


# ---- OAuth2 fulfillment ----------------------------------------------------------------------

def fulfillment_get(ctx, plan, errors=None):
    """OAuthFulfillmentStage: the code, then redirect_uri?code=…&state=… (state
    always, empty when none was sent); form_post as an autosubmit challenge."""
    pending = plan["context"]["params"]
    user = ctx.rr.users[ctx.session.user]
    code = ctx.ex.state.issue_code(pending, ctx.issuer, str(user.pk))
    fields = [("code", code), ("state", pending.state or "")]
    ctx.session.data.pop("plan", None)
    if pending.response_mode == "form_post":
        return ("challenge", challenge(ctx, plan, "ak-stage-autosubmit",
                                       {"url": pending.redirect_uri, "attrs": dict(fields),
                                        "title": f"Redirecting to {plan['context'].get('application')}..."}))
    if pending.response_mode == "fragment":
        return ("redirect", pending.redirect_uri.partition("#")[0] + "#" + urlencode(fields))
    return ("redirect", add_params(pending.redirect_uri, fields))


def fulfillment_post(ctx, plan, data):
    return fulfillment_get(ctx, plan)
