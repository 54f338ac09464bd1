"""Scenarios that put a login (and maybe consent) between authorize and code.

login-consent        cookie session + CSRF, login form, then consent form
login-cookie-domain  as login-consent, Domain=.127.0.0.1 cookie, no consent
login-direct         login form served at the authorize URL itself (action="")
json-login           a JSON login API sets the session cookie first
"""
from urllib.parse import urlencode

import pages
from authorize import answer_code, answer_error
from oauth_store import check_user

COOKIE_SCENARIOS = ("login-consent", "login-cookie-domain")


# ---- login-consent / login-cookie-domain -----------------------------------

def _session_cookies(ex, sid, csrf):
    """Two separate Set-Cookie headers, as real servers send them."""
    if ex.scenario == "login-cookie-domain":
        host = ex.base.split("://")[1].rsplit(":", 1)[0]
        sid_cookie = f"sid={sid}; Domain=.{host}; Path=/; Max-Age=600"
    else:
        sid_cookie = f"sid={sid}; Path=/t/{ex.run}/{ex.scenario}; HttpOnly"
    return [("Set-Cookie", sid_cookie), ("Set-Cookie", f"csrf={csrf}; Path=/")]


def cookie_authorize(ex, pending):
    session = ex.state.session(ex.cookies.get("sid"), ex.scenario)
    if session is not None and session.user:
        # Already signed in: straight to the code (no consent) or to consent.
        if ex.scenario == "login-cookie-domain":
            return answer_code(ex, pending, session.user)
        session.pending = pending
        return ex.redirect(302, ex.issuer + "/consent")
    sid, session = ex.state.new_session(ex.scenario)
    session.pending = pending
    back = ex.path + ("?" + ex.query if ex.query else "")
    ex.redirect(302, ex.issuer + "/login?" + urlencode({"return": back}),
                _session_cookies(ex, sid, session.csrf))


def _login_form(ex, csrf, back, error=""):
    return pages.login_page("login", {"csrf_token": csrf, "return": back}, error)


def cookie_login(ex):
    session = ex.state.session(ex.cookies.get("sid"), ex.scenario)
    if ex.method != "POST":
        csrf = session.csrf if session else ex.cookies.get("csrf", "")
        return ex.html(200, _login_form(ex, csrf, ex.query_params.get("return", "")))
    if session is None or session.pending is None:
        return ex.html(400, pages.message_page("Error", "Your session has expired."))
    token = ex.form.get("csrf_token")
    if not token or token != ex.cookies.get("csrf") or token != session.csrf:
        return ex.html(403, pages.message_page("Error", "CSRF check failed."))
    username, password = ex.form.get("username"), ex.form.get("password")
    if not check_user(username, password):
        page = _login_form(ex, session.csrf, ex.form.get("return", ""),
                           "Invalid username or password.")
        return ex.html(200, page)
    session.user = username
    if ex.scenario == "login-cookie-domain":
        pending, session.pending = session.pending, None
        return answer_code(ex, pending, username)
    ex.redirect(303, ex.issuer + "/consent")


def consent(ex):
    session = ex.state.session(ex.cookies.get("sid"), ex.scenario)
    if session is None or not session.user or session.pending is None:
        return ex.html(403, pages.message_page("Error", "Please sign in first."))
    pending = session.pending
    if ex.method != "POST":
        action = f"/t/{ex.run}/{ex.scenario}/consent"
        return ex.html(200, pages.consent_page(action, pending.txn, pending.scope,
                                               pending.client_id))
    if ex.form.get("txn") != pending.txn:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    return consent_decision(ex, session, pending)


def consent_decision(ex, session, pending):
    """The posted consent form's decision: allow answers with a code for the
    session's user, deny with access_denied; anything else is a 400."""
    decision = ex.form.get("decision")
    if decision not in ("allow", "deny"):
        return ex.html(400, pages.message_page("Error", "Missing decision."))
    session.pending = None
    if decision == "allow":
        return answer_code(ex, pending, session.user)
    answer_error(ex, pending, "access_denied", "The user denied the request")


# ---- login-direct -------------------------------------------------------------

def direct_login_authorize(ex, pending):
    """First visit: the login page itself, at the authorize URL (no redirect).

    Credentials sent with this first request are ignored on purpose, so a
    client has to find and submit the form.
    """
    txn = ex.state.put_txn(pending)
    ex.html(200, pages.login_page("", {"txn": txn}))


def direct_login_submit(ex):
    """The form posted back to the authorize URL, carrying txn."""
    txn = ex.params().get("txn")
    pending = ex.state.get_txn(txn)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown or expired transaction."))
    username, password = ex.params().get("username"), ex.params().get("password")
    if not check_user(username, password):
        return ex.html(200, pages.login_page("", {"txn": txn}, "Invalid username or password."))
    ex.state.get_txn(txn, pop=True)
    answer_code(ex, pending, username)


# ---- json-login ----------------------------------------------------------------

def json_login_api(ex):
    if ex.method != "POST":
        return ex.json_response(405, {"error": "method not allowed"}, [("Allow", "POST")])
    body = ex.json if isinstance(ex.json, dict) else {}
    if not check_user(body.get("username"), body.get("password")):
        return ex.json_response(401, {"error": "bad credentials"})
    sid, session = ex.state.new_session(ex.scenario)
    session.user = body["username"]
    ex.json_response(200, {"ok": True}, [("Set-Cookie", f"session={sid}; Path=/; HttpOnly")])


def json_login_authorize(ex, pending):
    session = ex.state.session(ex.cookies.get("session"), ex.scenario)
    if session is None or not session.user:
        return ex.redirect(302, ex.issuer + "/login")
    answer_code(ex, pending, session.user)


def json_login_page(ex):
    """A dead end: the form never logs anyone in (the API must be used)."""
    error = "Please log in with the app." if ex.method == "POST" else ""
    ex.html(200, pages.please_log_in_page(error))


# (scenario, sub-path) -> page handler
PAGES = {
    ("login-consent", "login"): cookie_login,
    ("login-consent", "consent"): consent,
    ("login-cookie-domain", "login"): cookie_login,
    ("json-login", "api/login"): json_login_api,
    ("json-login", "login"): json_login_page,
}

AUTHORIZE = {
    "login-consent": cookie_authorize,
    "login-cookie-domain": cookie_authorize,
    "login-direct": direct_login_authorize,
    "json-login": json_login_authorize,
}
