"""Replica of GitLab's sign-in (Devise) and OAuth provider (Doorkeeper),
under a relative URL root (the scenario root). See gitlab.md.

  GET  <sub>/oauth/authorize?…    signed out: the session keeps it (user_return_to), 302 <sub>/users/sign_in
                                  signed in: the Doorkeeper page, or the code at once for a scope granted before
  GET  <sub>/users/sign_in        form#new_user: authenticity_token, user[login], user[password], user[remember_me]
  POST <sub>/users/sign_in        wrong: 302 back with the flash "Invalid login or password." (Devise's failure app)
                                  2FA user: 200 the two-factor form (user[otp_attempt]) posting to the same URL
                                  right: 302 to user_return_to
  POST <sub>/oauth/authorize      Authorize -> 302 code; with _method=delete (Deny) -> error=access_denied
  POST <sub>/oauth/token          the fixture's token endpoint; discovery at <sub>/.well-known/openid-configuration

Session cookie `_gitlab_session`; Rails CSRF: a masked `authenticity_token`
per form (and meta csrf-token), a failed check is 422. Users: alice /
wonderland, bob / builder (+ TOTP, the fixture's seed; a used time step is
refused), mallory (locked). Devise lockable: 10 failed attempts lock the
account ("Your account is locked.").
"""
import base64
import secrets

from authorize import validate

from . import gitlab_pages as pages
from .replica_kit import (TOTP_SEED, bucket, cookie, deny, discovery, finish, handle, locked, password_ok, token,
                          totp_counter)

SCENARIOS = {"gitlab"}

USERS = {"alice": "wonderland", "bob": "builder", "mallory": "wonderland"}
EMAILS = {"alice@example.com": "alice", "bob@example.com": "bob"}
OTP = {"bob": TOTP_SEED}
MAXIMUM_ATTEMPTS = 10  # config/initializers/devise.rb lockable
SESSION_COOKIE = "_gitlab_session"
INVALID = "Invalid login or password."
LOCKED = "Your account is locked."
INVALID_OTP = "Invalid two-factor code."
DENIED = "The resource owner or authorization server denied the request."
AUTH_FIELDS = ("client_id", "redirect_uri", "state", "response_type", "scope", "nonce", "code_challenge",
               "code_challenge_method")


def _sub(ex):
    return ex.issuer[len(ex.base):]


def _session(ex):
    sid = ex.cookies.get(SESSION_COOKIE, "")
    with locked(ex):
        sessions = bucket(ex, "gitlab.sessions")
        found = sessions.get(sid)
        if found is not None and found["scenario"] == ex.scenario:
            return found, []
        sid = handle(24)
        found = sessions[sid] = {"scenario": ex.scenario, "user": None, "otp_user": None, "return_to": None,
                                 "flash": "", "csrf": secrets.token_bytes(32)}
    return found, [cookie(SESSION_COOKIE, sid, _sub(ex) + "/", extra="; SameSite=Lax")]


def _masked(session):
    """A per-form token: one-time pad ‖ (pad XOR the session's token), base64
    (Rails' masked_authenticity_token)."""
    pad = secrets.token_bytes(32)
    return base64.b64encode(pad + bytes(a ^ b for a, b in zip(pad, session["csrf"]))).decode()


def _csrf_ok(ex, session):
    try:
        raw = base64.b64decode(ex.form.get("authenticity_token", ""), validate=True)
    except ValueError:
        return False
    if len(raw) != 64:
        return False
    return secrets.compare_digest(bytes(a ^ b for a, b in zip(raw[:32], raw[32:])), session["csrf"])


def _sign_in_page(ex, session, headers):
    flash, session["flash"] = session["flash"], ""
    ex.html(200, pages.sign_in(_sub(ex), _masked(session), flash), headers)


def _sign_in(ex):
    session, headers = _session(ex)
    if ex.method != "POST":
        return _sign_in_page(ex, session, headers)
    if not _csrf_ok(ex, session):
        return ex.html(422, pages.rejected(), headers)
    if session["otp_user"] and "user[otp_attempt]" in ex.form:
        return _otp(ex, session, headers)
    login = ex.form.get("user[login]", "")
    name = EMAILS.get(login, login)
    with locked(ex):
        failures = bucket(ex, "gitlab.failed_attempts")
        locked_out = name == "mallory" or failures.get((ex.scenario, name), 0) >= MAXIMUM_ATTEMPTS
        right = name in USERS and password_ok(USERS, name, ex.form.get("user[password]"))
        if not right and name in USERS and not locked_out:
            failures[(ex.scenario, name)] = failures.get((ex.scenario, name), 0) + 1
            locked_out = failures[(ex.scenario, name)] >= MAXIMUM_ATTEMPTS
    if locked_out or not right:
        # Devise's failure app redirects a navigational request back to the form.
        session["flash"] = LOCKED if locked_out and name in USERS else INVALID
        return ex.redirect(302, _sub(ex) + "/users/sign_in", headers)
    if name in OTP:
        with locked(ex):
            session["otp_user"] = name
        return ex.html(200, pages.two_factor(_sub(ex), _masked(session), ex.form.get("user[remember_me]", "0")),
                       headers)
    _signed_in(ex, session, name, headers)


def _otp(ex, session, headers):
    name = session["otp_user"]
    step = totp_counter(ex.form.get("user[otp_attempt]", ""), OTP[name])
    with locked(ex):
        consumed = bucket(ex, "gitlab.consumed_timestep")
        ok = step is not None and step > consumed.get((ex.scenario, name), -1)
        if ok:
            consumed[(ex.scenario, name)] = step
    if not ok:
        return ex.html(200, pages.two_factor(_sub(ex), _masked(session), ex.form.get("user[remember_me]", "0"),
                                             INVALID_OTP), headers)
    _signed_in(ex, session, name, headers)


def _signed_in(ex, session, name, headers):
    with locked(ex):
        session["user"], session["otp_user"] = name, None
        target, session["return_to"] = session["return_to"] or _sub(ex) + "/", None
    ex.redirect(302, target, headers)


def _authorize(ex):
    session, headers = _session(ex)
    if ex.method == "POST":
        return _decide(ex, session, headers)
    if session["user"] is None:
        with locked(ex):
            session["return_to"] = ex.path + ("?" + ex.query if ex.query else "")
        return ex.redirect(302, _sub(ex) + "/users/sign_in", headers)
    pending = validate(ex)
    if pending is None:
        return
    with locked(ex):
        granted = bucket(ex, "gitlab.grants").get((ex.scenario, session["user"], pending.client_id))
    if granted is not None and set(pending.scope.split()) <= granted:
        return finish(ex, pending, session["user"], ex.issuer, headers=headers)
    fields = [(k, ex.query_params.get(k, "")) for k in AUTH_FIELDS]
    ex.html(200, pages.authorize(_sub(ex), _masked(session), pending.client_id, fields, pending.scope.split()), headers)


def _decide(ex, session, headers):
    if not _csrf_ok(ex, session):
        return ex.html(422, pages.rejected(), headers)
    if session["user"] is None:
        return ex.redirect(302, _sub(ex) + "/users/sign_in", headers)
    pending = validate(ex)  # the form repeats the authorization request
    if pending is None:
        return
    if ex.form.get("_method", "").lower() == "delete":
        return deny(ex, pending, ex.issuer, "access_denied", DENIED)
    with locked(ex):
        bucket(ex, "gitlab.grants")[(ex.scenario, session["user"], pending.client_id)] = set(pending.scope.split())
    finish(ex, pending, session["user"], ex.issuer, headers=headers)


def route(ex):
    rest = ex.rest
    if rest == ".well-known/openid-configuration":
        iss = ex.issuer
        return ex.json_response(200, discovery(iss, iss + "/oauth/authorize", iss + "/oauth/token",
                                               userinfo_endpoint=iss + "/oauth/userinfo",
                                               jwks_uri=iss + "/oauth/discovery/keys"))
    if rest == "oauth/token":
        return token(ex, ex.issuer)
    if rest == "oauth/authorize":
        return _authorize(ex)
    if rest == "users/sign_in":
        return _sign_in(ex)
    ex.html(404, "<!DOCTYPE html><html><head><title>The page you're looking for could not be found (404)</title>"
                 "</head><body><h1>404</h1></body></html>")
