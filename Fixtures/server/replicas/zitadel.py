"""Replica of Zitadel's login v1 (internal/api/ui/login) behind its OIDC
provider. See zitadel.md.

  GET  <root>/oauth/v2/authorize?…          302 <root>/ui/login/login?authRequestID=V2_<id> (cookie zitadel.useragent)
  GET  <root>/ui/login/login?authRequestID  login.html: gorilla.csrf.Token, authRequestID, loginName
  POST <root>/ui/login/loginname            unknown user: the form + "User could not be found"; else password.html
  POST <root>/ui/login/password             gorilla.csrf.Token, authRequestID, loginName, password
                                            wrong: password.html + "Password is invalid"; locked: "User is locked"
                                            OTP user: mfa_verify (code, mfaType); else 302 the callback
  POST <root>/ui/login/mfa/verify           authRequestID, mfaType, code (pyotp) -> 302 the callback
  GET  <root>/oauth/v2/authorize/callback?id=V2_<id>   302 <redirect_uri>?code&state
  POST <root>/oauth/v2/token                 the fixture's token endpoint; discovery at <root>/.well-known/…

CSRF: cookie `zitadel.login.csrf` holds the secret, each form a masked token
(gorilla/csrf); a bad one is 403 `Forbidden - CSRF token invalid`. Each step
checks that the auth request belongs to the browser's user agent cookie.
Users: alice / wonderland, bob / builder (+ TOTP, the fixture's seed),
mallory / wonderland (locked). Config `zitadel_max_password_attempts`
(lockout policy, default 0 = off).
"""
import base64
import secrets

from authorize import validate

from . import zitadel_pages as pages
from .replica_kit import (TOTP_SEED, bucket, config, cookie, discovery, finish, handle, locked, password_ok, token,
                          totp_counter)

SCENARIOS = {"zitadel"}

USERS = {"alice": "wonderland", "bob": "builder", "mallory": "wonderland"}
OTP = {"bob": TOTP_SEED}
LOCKED = {"mallory"}
CSRF_COOKIE = "zitadel.login.csrf"
AGENT_COOKIE = "zitadel.useragent"
# Texts: static/i18n/en.yaml (Errors.*); the "(ID)" suffix is Zitadel's
# format, the ids are this replica's own.
NOT_FOUND = "User could not be found (replica-user)"
INVALID_PASSWORD = "Password is invalid (replica-password)"
INVALID_AND_LOCKED = "Password is invalid and user is locked, contact your administrator. (replica-locking)"
USER_LOCKED = "User is locked (replica-locked)"
INVALID_CODE = "Invalid code (replica-otp)"
AGENT_MISMATCH = "User Agent does not correspond (replica-agent)"
REQUEST_NOT_FOUND = "Could not find authrequest (replica-authreq)"


def _prefix(ex):
    return ex.issuer[len(ex.base):] + "/ui/login"


# ---- CSRF (gorilla/csrf: a secret in a cookie, a masked token per form) ----------------

def _csrf_secret(ex):
    """(secret bytes, Set-Cookie headers when new)."""
    raw = ex.cookies.get(CSRF_COOKIE, "")
    try:
        secret = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    except ValueError:
        secret = b""
    if len(secret) == 32:
        return secret, []
    secret = secrets.token_bytes(32)
    value = base64.urlsafe_b64encode(secret).rstrip(b"=").decode()
    return secret, [cookie(CSRF_COOKIE, value, ex.issuer[len(ex.base):] + "/ui/login/", extra="; SameSite=Lax")]


def _mask(secret):
    pad = secrets.token_bytes(32)
    return base64.b64encode(pad + bytes(a ^ b for a, b in zip(pad, secret))).decode()


def _csrf_ok(ex):
    secret, fresh = _csrf_secret(ex)
    if fresh:
        return False, "Forbidden - CSRF token not found in request"
    try:
        sent = base64.b64decode(ex.form.get("gorilla.csrf.Token", ""), validate=True)
    except ValueError:
        sent = b""
    if len(sent) != 64:
        return False, "Forbidden - CSRF token invalid"
    ok = secrets.compare_digest(bytes(a ^ b for a, b in zip(sent[:32], sent[32:])), secret)
    return ok, "" if ok else "Forbidden - CSRF token invalid"


# ---- auth requests -----------------------------------------------------------------------

def _agent(ex):
    agent = ex.cookies.get(AGENT_COOKIE, "")
    if agent:
        return agent, []
    agent = handle(16)
    return agent, [cookie(AGENT_COOKIE, agent, "/", extra="; SameSite=Lax")]


def _request(ex, req_id):
    """(the auth request, error text) for this browser."""
    with locked(ex):
        req = bucket(ex, "zitadel.requests").get(req_id or "")
    if req is None or req["scenario"] != ex.scenario:
        return None, REQUEST_NOT_FOUND
    if req["agent"] != ex.cookies.get(AGENT_COOKIE, ""):
        return None, AGENT_MISMATCH
    return req, ""


def _page(ex, render, *args, headers=()):
    secret, fresh = _csrf_secret(ex)
    ex.html(200, render(_prefix(ex), _mask(secret), *args), list(headers) + fresh)


def _authorize(ex):
    pending = validate(ex)
    if pending is None:
        return
    agent, headers = _agent(ex)
    req_id = "V2_" + "".join(secrets.choice("0123456789") for _ in range(18))
    with locked(ex):
        bucket(ex, "zitadel.requests")[req_id] = {"scenario": ex.scenario, "pending": pending, "agent": agent,
                                                  "user": None, "password_ok": False, "mfa_ok": False}
    ex.redirect(302, f"{_prefix(ex)}/login?authRequestID={req_id}", headers)


def _login(ex):
    req, err = _request(ex, ex.params().get("authRequestID"))
    if req is None:
        return ex.html(200, pages.internal_error(_prefix(ex), err))
    _page(ex, pages.login, req_id_of(ex), req["user"] or "")


def req_id_of(ex):
    return ex.params().get("authRequestID", "")


def _checked_post(ex):
    """The auth request of a POST whose CSRF token is right (else answered)."""
    ok, why = _csrf_ok(ex)
    if not ok:
        ex.send(403, why + "\n")
        return None
    req, err = _request(ex, req_id_of(ex))
    if req is None:
        ex.html(200, pages.internal_error(_prefix(ex), err))
    return req


def _loginname(ex):
    if ex.method != "POST":
        return _login(ex)
    req = _checked_post(ex)
    if req is None:
        return
    name = ex.form.get("loginName", "").strip()
    if name not in USERS:
        return _page(ex, pages.login, req_id_of(ex), name, NOT_FOUND)
    with locked(ex):
        req["user"], req["password_ok"], req["mfa_ok"] = name, False, False
    _page(ex, pages.password, req_id_of(ex), name)


def _password(ex):
    req = _checked_post(ex)
    if req is None:
        return
    name = req["user"]
    if name is None:
        return _page(ex, pages.login, req_id_of(ex), "", NOT_FOUND)
    limit = int(config(ex).get("zitadel_max_password_attempts") or 0)
    with locked(ex):
        failures = bucket(ex, "zitadel.failures")
        key = (ex.scenario, name)
        if name in LOCKED or (limit and failures.get(key, 0) >= limit):
            error = USER_LOCKED
        elif password_ok(USERS, name, ex.form.get("password")):
            error = ""
            req["password_ok"] = True
        else:
            failures[key] = failures.get(key, 0) + 1
            error = INVALID_AND_LOCKED if limit and failures[key] >= limit else INVALID_PASSWORD
    if error:
        return _page(ex, pages.password, req_id_of(ex), name, error)
    if name in OTP:
        return _page(ex, pages.mfa_verify, req_id_of(ex), name)
    _to_callback(ex, req)


def _mfa_verify(ex):
    req = _checked_post(ex)
    if req is None:
        return
    if not req["password_ok"]:
        return ex.html(200, pages.internal_error(_prefix(ex), REQUEST_NOT_FOUND))
    if totp_counter(ex.form.get("code", ""), OTP[req["user"]]) is None:
        return _page(ex, pages.mfa_verify, req_id_of(ex), req["user"], INVALID_CODE)
    with locked(ex):
        req["mfa_ok"] = True
    _to_callback(ex, req)


def _to_callback(ex, req):
    ex.redirect(302, ex.issuer[len(ex.base):] + "/oauth/v2/authorize/callback?id=" + req_id_of(ex))


def _callback(ex):
    req_id = ex.query_params.get("id", "")
    req, err = _request(ex, req_id)
    done = req is not None and req["password_ok"] and (req["user"] not in OTP or req["mfa_ok"])
    if not done:
        return ex.json_response(400, {"error": "invalid_request", "error_description": err or "login not finished"})
    with locked(ex):
        bucket(ex, "zitadel.requests").pop(req_id, None)
    finish(ex, req["pending"], req["user"], ex.issuer)


def route(ex):
    rest, iss = ex.rest, ex.issuer
    if rest == ".well-known/openid-configuration":
        return ex.json_response(200, discovery(iss, iss + "/oauth/v2/authorize", iss + "/oauth/v2/token",
                                               userinfo_endpoint=iss + "/oidc/v1/userinfo",
                                               jwks_uri=iss + "/oauth/v2/keys"))
    handlers = {"oauth/v2/authorize": _authorize, "oauth/v2/authorize/callback": _callback,
                "ui/login/login": _login, "ui/login/loginname": _loginname, "ui/login/password": _password,
                "ui/login/mfa/verify": _mfa_verify}
    if rest == "oauth/v2/token":
        return token(ex, iss)
    handler = handlers.get(rest)
    if handler is None:
        return ex.send(404, "404 page not found\n")
    handler(ex)
