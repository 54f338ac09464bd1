"""Replica of Gitea's sign-in and OAuth2 provider (go-gitea/gitea; Forgejo
keeps the same routes and forms): the instance lives under an AppSubURL,
here the scenario root. See gitea.md.

  GET  <sub>/login/oauth/authorize?…   signed out: cookie redirect_to + 303 <sub>/user/login
                                        signed in: the grant page, or the code at once once granted
  GET/POST <sub>/user/login             _csrf, user_name, password[, remember]
  GET/POST <sub>/user/two_factor        _csrf, passcode (TOTP, pyotp; the last used code is refused)
  POST <sub>/login/oauth/grant          client_id, state, scope, nonce, redirect_uri, granted=true|false
  POST <sub>/login/oauth/access_token   the token endpoint;  <sub>/.well-known/openid-configuration

Sessions: cookie `i_like_gitea`; CSRF: cookie `_csrf` and the form field
`_csrf` (or header X-Csrf-Token), a bad one is 400 `Invalid CSRF token.`
Users: alice / wonderland (alice@example.com), bob / builder (+ TOTP, the
fixture's seed), mallory / wonderland (prohibited from signing in).
Config: `gitea_grant_csrf` (bool): the grant form carries and checks _csrf,
as Gitea versions before the /login/oauth group was DisableCSRF did.
"""
from urllib.parse import quote, unquote

from authorize import validate

from . import gitea_pages as pages
from .replica_kit import (TOTP_SEED, bucket, config, cookie, deny, discovery, expire_cookie, finish, handle, locked,
                          password_ok, token, totp_counter)

SCENARIOS = {"gitea"}

USERS = {"alice": "wonderland", "bob": "builder", "mallory": "wonderland"}
EMAILS = {"alice@example.com": "alice", "bob@example.com": "bob"}
TWOFA = {"bob": TOTP_SEED}
PROHIBITED = {"mallory"}
SESSION_COOKIE = "i_like_gitea"
APP_NAMES = {"demo-app": "demo-app", "public-app": "public-app", "weird:app id": "weird:app id"}


def _sub(ex):
    return ex.issuer[len(ex.base):]


def _issuer(ex):
    return ex.issuer + "/"  # AppURL, with its trailing slash


def _session(ex):
    """(sid, session dict, Set-Cookie headers for a new one)."""
    sid = ex.cookies.get(SESSION_COOKIE, "")
    with locked(ex):
        sessions = bucket(ex, "gitea.sessions")
        found = sessions.get(sid)
        if found is not None and found["scenario"] == ex.scenario:
            return sid, found, []
        sid = handle(12)
        found = sessions[sid] = {"scenario": ex.scenario, "uid": None, "twofa_uid": None, "csrf": handle(24),
                                 "oauth": None}
    return sid, found, [cookie(SESSION_COOKIE, sid, _sub(ex) + "/")]


def _csrf_cookie(ex, session):
    return cookie("_csrf", session["csrf"], _sub(ex) + "/", extra="; SameSite=Lax")


def _csrf_ok(ex, session):
    sent = ex.form.get("_csrf") or ex.headers.get("x-csrf-token", "")
    return bool(sent) and sent == session["csrf"]


def _bad_csrf(ex):
    ex.send(400, "Invalid CSRF token.\n")


def _resolve(login):
    name = EMAILS.get(login or "", login or "")
    return name if name in USERS else None


# ---- sign-in --------------------------------------------------------------------------

def _login(ex):
    sid, session, headers = _session(ex)
    headers = headers + [_csrf_cookie(ex, session)]
    action = _sub(ex) + "/user/login"
    if ex.method != "POST":
        return ex.html(200, pages.signin(action, session["csrf"]), headers)
    if not _csrf_ok(ex, session):
        return _bad_csrf(ex)
    name = _resolve(ex.form.get("user_name"))
    if name is None or not password_ok(USERS, name, ex.form.get("password")):
        return ex.html(200, pages.signin(action, session["csrf"], "Username or password is incorrect.",
                                         ex.form.get("user_name", "")), headers)
    if name in PROHIBITED:
        return ex.html(200, pages.prohibit_login(), headers)
    if name in TWOFA:
        with locked(ex):
            session["twofa_uid"], session["remember"] = name, ex.form.get("remember") == "on"
        return ex.redirect(303, _sub(ex) + "/user/two_factor", headers)
    _signed_in(ex, session, name, headers)


def _signed_in(ex, session, name, headers):
    """handleSignIn: the session holds the user; back to redirect_to."""
    with locked(ex):
        session["uid"], session["twofa_uid"] = name, None
    target = unquote(ex.cookies.get("redirect_to", "")) or _sub(ex) + "/"
    ex.redirect(303, target, headers + [expire_cookie("redirect_to", _sub(ex) + "/")])


def _two_factor(ex):
    sid, session, headers = _session(ex)
    if session["twofa_uid"] is None:
        return ex.send(500, "Internal Server Error\n")  # "not in 2FA session" (ctx.ServerError)
    headers = headers + [_csrf_cookie(ex, session)]
    action = _sub(ex) + "/user/two_factor"
    if ex.method != "POST":
        return ex.html(200, pages.twofa(_sub(ex), action, session["csrf"]), headers)
    if not _csrf_ok(ex, session):
        return _bad_csrf(ex)
    name, passcode = session["twofa_uid"], ex.form.get("passcode", "")
    with locked(ex):
        last = bucket(ex, "gitea.last_passcode")
        ok = totp_counter(passcode, TWOFA[name]) is not None and last.get((ex.scenario, name)) != passcode
        if ok:
            last[(ex.scenario, name)] = passcode
    if not ok:
        return ex.html(200, pages.twofa(_sub(ex), action, session["csrf"], "Your passcode is incorrect. If you "
                                        "misplaced your device, use your scratch code to sign in."), headers)
    _signed_in(ex, session, name, headers)


# ---- OAuth2 ---------------------------------------------------------------------------

def _authorize(ex):
    sid, session, headers = _session(ex)
    if session["uid"] is None:
        back = ex.path + ("?" + ex.query if ex.query else "")
        return ex.redirect(303, _sub(ex) + "/user/login",
                           headers + [cookie("redirect_to", quote(back, safe=""), _sub(ex) + "/")])
    pending = validate(ex)
    if pending is None:
        return
    with locked(ex):
        granted = bucket(ex, "gitea.grants").get((ex.scenario, session["uid"], pending.client_id))
        session["oauth"] = pending
    if granted is not None and set(pending.scope.split()) <= granted:
        return finish(ex, pending, session["uid"], _issuer(ex), status=303, headers=headers)
    csrf = session["csrf"] if config(ex).get("gitea_grant_csrf") else None
    ex.html(200, pages.grant(_sub(ex), APP_NAMES.get(pending.client_id, pending.client_id), pending.client_id,
                             pending.state or "", pending.scope, pending.nonce or "", pending.redirect_uri, csrf),
            headers + ([_csrf_cookie(ex, session)] if csrf else []))


def _grant(ex):
    sid, session, headers = _session(ex)
    if session["uid"] is None:
        return ex.redirect(303, _sub(ex) + "/user/login", headers)
    if config(ex).get("gitea_grant_csrf") and not _csrf_ok(ex, session):
        return _bad_csrf(ex)
    pending, f = session["oauth"], ex.form
    # GrantApplicationOAuth: the form must repeat the request kept in the session.
    if (pending is None or f.get("client_id") != pending.client_id or f.get("state", "") != (pending.state or "")
            or f.get("redirect_uri") != pending.redirect_uri):
        return ex.send(400, "Bad Request\n")
    with locked(ex):
        session["oauth"] = None
    if f.get("granted") != "true":
        return deny(ex, pending, _issuer(ex), "access_denied", "the request is denied")
    with locked(ex):
        bucket(ex, "gitea.grants")[(ex.scenario, session["uid"], pending.client_id)] = set(pending.scope.split())
    finish(ex, pending, session["uid"], _issuer(ex), status=303, headers=headers)


def route(ex):
    rest = ex.rest
    if rest == ".well-known/openid-configuration":
        iss, base = _issuer(ex), ex.issuer
        return ex.json_response(200, discovery(iss, base + "/login/oauth/authorize", base + "/login/oauth/access_token",
                                               userinfo_endpoint=base + "/login/oauth/userinfo",
                                               jwks_uri=base + "/login/oauth/keys"))
    if rest == "login/oauth/access_token":
        return token(ex, _issuer(ex))
    handlers = {"login/oauth/authorize": _authorize, "login/oauth/grant": _grant, "user/login": _login,
                "user/two_factor": _two_factor}
    handler = handlers.get(rest)
    if handler is None:
        return ex.html(404, "<!DOCTYPE html><html><body><p>Page Not Found</p></body></html>")
    handler(ex)
