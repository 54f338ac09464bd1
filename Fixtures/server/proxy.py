"""A proxy OpenID Provider, as SATOSA is one: the authorization endpoint is
a proxy whose users log in at an upstream identity provider, at another
path of this origin or at another origin; the proxy never asks for a
password itself. Like SATOSA at its default settings, it keeps the whole
authorization request it received (query and body) in a state cookie, and
its log would show it: whatever a client puts there — a password — leaks.

proxy-path     authorize -> 303 <issuer>/upstream/login?RelayState=T (this origin)
proxy-origin   authorize -> 303 <other>/t/<run>/proxy-origin/upstream/login?RelayState=T
               (the other origin, as in xorigin.py)

The upstream login page is the usual sign-in form (hidden RelayState); a
right password -> 302 back to the proxy's <issuer>/proxy/acs?RelayState=T
(its assertion consumer), which needs the state cookie and answers with the
code. A wrong one -> the form again with the usual alert.
"""
import base64
import json

import pages
from authorize import answer_code
from oauth_store import check_user
from xorigin import other_origin

STATE_COOKIE = "SATOSA_STATE"
SCENARIOS = {"proxy-path", "proxy-origin"}


def authorize(ex, pending):
    """The proxy: remember everything, send the user upstream."""
    upstream = ex.issuer
    if ex.scenario == "proxy-origin":
        other = other_origin(ex)
        if other is None:
            return
        upstream = f"{other}/t/{ex.run}/{ex.scenario}"
    kept = {"method": ex.method, "query": ex.query_params, "form": ex.form}
    blob = base64.urlsafe_b64encode(json.dumps(kept).encode()).decode().rstrip("=")
    txn = ex.state.put_txn(pending)
    cookie = f"{STATE_COOKIE}={blob}; Path=/t/{ex.run}/{ex.scenario}; HttpOnly"
    ex.redirect(303, f"{upstream}/upstream/login?RelayState={txn}", [("Set-Cookie", cookie)])


def upstream_login(ex):
    """The upstream identity provider's sign-in page, whichever origin it is on."""
    txn = ex.params().get("RelayState")
    pending = ex.state.get_txn(txn)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown RelayState."))
    if ex.method != "POST":
        return ex.html(200, pages.login_page("login", {"RelayState": txn}))
    username = ex.form.get("username")
    if not check_user(username, ex.form.get("password")):
        return ex.html(200, pages.login_page("login", {"RelayState": txn}, "Invalid username or password."))
    pending.data["user"] = username
    ex.redirect(302, f"{pending.issuer}/proxy/acs?RelayState={txn}")


def acs(ex):
    """The proxy's assertion consumer: back from upstream, answer the client."""
    if STATE_COOKIE not in ex.cookies:
        return ex.html(400, pages.message_page("Error", "State cookie missing."))
    pending = ex.state.get_txn(ex.query_params.get("RelayState"), pop=True)
    if pending is None or "user" not in pending.data:
        return ex.html(400, pages.message_page("Error", "Unknown RelayState."))
    ex.issuer = pending.issuer or ex.issuer
    answer_code(ex, pending, pending.data["user"])


AUTHORIZE = {name: authorize for name in SCENARIOS}
PAGES = {
    **{(name, "upstream/login"): upstream_login for name in SCENARIOS},
    **{(name, "proxy/acs"): acs for name in SCENARIOS},
}
