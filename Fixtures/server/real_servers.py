"""Behaviours of real authorization servers met with default settings.

post-to-get           a POSTed authorize is re-issued as GET: 302 to
                      authorize?<every POSTed field, password included>
                      (django-allauth, Canaille). GET: login form -> code
post-to-get-late      POST stored in a (signed, readable) session cookie; login
post-to-get-late-twice  form first; after it, 302 continue?next=<the POSTed
                      request as a URL, percent-encoded once / twice>
post-403              POST authorize -> 403 (JupyterHub); GET: login form -> code
post-js-get-ok        POST authorize -> 200 JavaScript app shell; GET with the
                      session cookie of POST <issuer>/api/login -> code
js-login              every page is a JavaScript app shell (no form)
noscript-form         a real login form plus a <noscript> warning and scripts
login-error-*         the login form again after a wrong password, the error
                      shown (and hidden) the ways real servers do
"""
import base64
import hashlib
import hmac
import json
from urllib.parse import quote, unquote, urlencode

import login_flows
import pages
import txn_login
from authorize import answer_code
from jwt_util import FIXTURE_KEY, b64url
from oauth_store import check_user

# ---- post-to-get -----------------------------------------------------------------


def post_to_get(ex, pending):
    if ex.method == "POST":
        return ex.redirect(302, ex.issuer + "/authorize?" + urlencode(list(ex.params().items())))
    txn_login.start(ex, pending)


# ---- post-to-get-late: Flask-style session cookie (base64 JSON + HMAC) --------------

def _session_cookie(ex, data):
    payload = b64url(json.dumps(data, separators=(",", ":")).encode())
    sig = b64url(hmac.new(FIXTURE_KEY, payload.encode(), hashlib.sha256).digest()[:16])
    return ("Set-Cookie", f"session={payload}.{sig}; Path=/t/{ex.run}/{ex.scenario}; HttpOnly")


def _session(ex):
    payload, _, sig = ex.cookies.get("session", "").partition(".")
    good = b64url(hmac.new(FIXTURE_KEY, payload.encode(), hashlib.sha256).digest()[:16])
    if not payload or not hmac.compare_digest(sig, good):
        return None
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def late_authorize(ex, pending):
    data = _session(ex) or {}
    if data.get("user"):
        return answer_code(ex, pending, data["user"])
    back = ex.path + "?" + urlencode(list(ex.params().items()))
    ex.redirect(302, ex.issuer + "/login", [_session_cookie(ex, {"next": back})])


def late_login(ex):
    data = _session(ex)
    if not data or "next" not in data:
        return ex.html(400, pages.message_page("Error", "Your session has expired."))
    if ex.method != "POST":
        return ex.html(200, pages.login_page("login", {}))
    username = ex.form.get("username")
    if not check_user(username, ex.form.get("password")):
        return ex.html(200, pages.login_page("login", {}, txn_login.WRONG))
    data["user"] = username
    target = quote(data["next"], safe="")
    if ex.scenario == "post-to-get-late-twice":
        target = quote(target, safe="")
    ex.redirect(302, f"{ex.issuer}/continue?next={target}", [_session_cookie(ex, data)])


def late_continue(ex):
    target = ex.query_params.get("next", "")  # the query parser decoded it once
    if ex.scenario == "post-to-get-late-twice":
        target = unquote(target)
    if not target.startswith(f"/t/{ex.run}/{ex.scenario}/"):
        return ex.html(400, pages.message_page("Error", "Bad next URL."))
    ex.redirect(302, target)


# ---- post-403, post-js-get-ok, js-login ----------------------------------------------

def post_403(ex, pending):
    if ex.method == "POST":
        return ex.html(403, pages.message_page("403 Forbidden", "'_xsrf' argument missing from POST"))
    txn_login.start(ex, pending)


def _shell(ex):
    context = {"pageId": "login.ftl", "realm": {"name": "fixture"},
               "url": {"loginAction": f"{ex.issuer}/login-actions/authenticate"}}
    ex.html(200, pages.spa_shell(json.dumps(context).replace("</", "<\\/")))


def post_js_get_ok(ex, pending):
    session = ex.state.session(ex.cookies.get("session"), ex.scenario)
    if ex.method == "POST" or session is None or not session.user:
        return _shell(ex)
    answer_code(ex, pending, session.user)


# ---- login error pages ----------------------------------------------------------------

HIDDEN_ALERTS = (  # hidden from a reader; none may be taken as the error
    '<div class="alert alert-danger" hidden>Old banner</div>\n'
    '<div role="alert" style="display: none">Hidden alert</div>\n'
    '<div role="alert" aria-hidden="true">Stale alert</div>\n'
    '<div class="error" style="visibility:hidden">Invisible error</div>\n'
    '<template><div role="alert">Template alert</div></template>\n')
VISIBLE_ALERT = '<div role="alert">Invalid username or password.</div>\n'

# scenario -> (banner always shown, banner shown after a wrong password, head)
ERROR_PAGES = {
    "login-error-hidden-banner": (HIDDEN_ALERTS, VISIBLE_ALERT, ""),
    "login-error-noscript": (
        '<noscript><div class="error" role="alert">Enable JavaScript</div></noscript>\n',
        '<p class="login_error">Invalid username or password.</p>\n', ""),
    "login-error-entities": (
        "", '<div class="alert alert-error" role="alert">Invalid username or password. '
            "Don&#39;t &amp; &quot;retry&quot;</div>\n", ""),
    "login-error-css-hidden": (
        '<div class="error">Your session has expired.</div>\n', VISIBLE_ALERT,
        "<style>.error { display: none; }</style>\n"),
    "noscript-form": (
        '<noscript><div class="alert alert-warning">JavaScript is disabled: '
        "some features will not work.</div></noscript>\n",
        '<div class="alert alert-error" role="alert">Invalid username or password.</div>\n',
        '<script src="/static/login.js" defer></script>\n'),
}
ERROR_STATUS = {"login-error-401": 401, "login-error-403": 403, "login-error-422": 422}


def _render_error_page(ex, txn, error):
    always, on_error, head = ERROR_PAGES[ex.scenario]
    return pages.login_page("login", {"txn": txn}, "", always + (on_error if error else ""), head)


def error_login(ex):
    if ex.scenario in ERROR_STATUS:
        return txn_login.login(ex, fail_status=ERROR_STATUS[ex.scenario])
    txn_login.login(ex, render=_render_error_page)


LOGIN_THEN_CODE = (*ERROR_PAGES, *ERROR_STATUS)

AUTHORIZE = {
    "post-to-get": post_to_get,
    "post-to-get-late": late_authorize,
    "post-to-get-late-twice": late_authorize,
    "post-403": post_403,
    "post-js-get-ok": post_js_get_ok,
    "js-login": lambda ex, pending: _shell(ex),
    **{name: txn_login.start for name in LOGIN_THEN_CODE},
}

PAGES = {
    ("post-to-get", "login"): txn_login.login,
    ("post-403", "login"): txn_login.login,
    ("post-to-get-late", "login"): late_login,
    ("post-to-get-late-twice", "login"): late_login,
    ("post-to-get-late", "continue"): late_continue,
    ("post-to-get-late-twice", "continue"): late_continue,
    ("post-js-get-ok", "api/login"): login_flows.json_login_api,
    **{(name, "login"): error_login for name in LOGIN_THEN_CODE},
}

# Every other path of these scenarios answers with the app shell too.
CATCH_ALL = {"js-login": _shell}
