"""`users`: many users, one server-side session each (batch runs, `--users`).

Users: alice/wonderland and user1..user100000 with password pw-<n>
(oauth_store.check_user computes them). The flow:

authorize -> 200 login form (cookie usid=<session>, hidden txn) -> POST login
-> 303 consent -> POST consent decision=allow -> 302 with a code whose
token's sub is the user. Authorize with a signed-in usid -> 302 consent.

409 "session crossed" when a request shows that cookies leaked between
flows: two usid cookies at once; a login for another user than the one the
session is bound to; a form whose txn is not the session's own request.
"""
import pages
from login_flows import consent_decision
from oauth_store import check_user
from txn_login import WRONG

COOKIE = "usid"


def _usids(ex):
    """Every usid value in the Cookie header(s), duplicates kept."""
    raw = ex.headers.get("cookie", "")
    return [part.strip()[len(COOKIE) + 1:] for part in raw.split(";")
            if part.strip().startswith(COOKIE + "=")]


def _crossed(ex):
    ex.send(409, "session crossed\n")


def _session(ex):
    """(session or None, crossed?)"""
    values = _usids(ex)
    if len(values) > 1:
        return None, True
    return ex.state.session(values[0] if values else None, ex.scenario), False


def _login_page(ex, txn, error=""):
    return pages.login_page("login", {"txn": txn}, error)


def authorize(ex, pending):
    session, crossed = _session(ex)
    if crossed:
        return _crossed(ex)
    if session is not None and session.user:
        session.pending = pending
        return ex.redirect(302, ex.issuer + "/consent")
    sid, session = ex.state.new_session(ex.scenario)
    session.pending = pending
    cookie = f"{COOKIE}={sid}; Path=/t/{ex.run}/{ex.scenario}; HttpOnly"
    ex.html(200, _login_page(ex, pending.txn), [("Set-Cookie", cookie)])


def login(ex):
    session, crossed = _session(ex)
    if crossed:
        return _crossed(ex)
    if session is None or session.pending is None:
        return ex.html(400, pages.message_page("Error", "Your session has expired."))
    if ex.method != "POST":
        return ex.html(200, _login_page(ex, session.pending.txn))
    username = ex.form.get("username")
    if ex.form.get("txn") != session.pending.txn or (session.user and session.user != username):
        return _crossed(ex)
    if not check_user(username, ex.form.get("password")):
        return ex.html(200, _login_page(ex, session.pending.txn, WRONG))
    session.user = username
    ex.redirect(303, ex.issuer + "/consent")


def consent(ex):
    session, crossed = _session(ex)
    if crossed:
        return _crossed(ex)
    if session is None or not session.user or session.pending is None:
        return ex.html(403, pages.message_page("Error", "Please sign in first."))
    pending = session.pending
    if ex.method != "POST":
        return ex.html(200, pages.consent_page(f"/t/{ex.run}/{ex.scenario}/consent", pending.txn,
                                               pending.scope, pending.client_id))
    if ex.form.get("txn") != pending.txn:
        return _crossed(ex)
    return consent_decision(ex, session, pending)


AUTHORIZE = {"users": authorize}
PAGES = {("users", "login"): login, ("users", "consent"): consent}
