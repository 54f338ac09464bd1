"""Scenarios whose walk leaves this origin: credentials (form values, -H
headers, a replayed body) must not follow it, as curl drops them on a
cross-origin redirect; cookies follow their own domain rules (RFC 6265).

The other origin is another listener of this same process (--extra-listen),
so its hits land in the same run. Which one: the run's config
(POST /_config/<run> {"other": "http://127.0.0.2:PORT"}), else the first
listener other than the one the request came to.

xorigin-form      the login form's action is on the other origin
xorigin-307       a POSTed authorize answers 307 to the other origin's
                  authorize?txn=T, which takes the replayed request
xorigin-redirect  302 through the other origin and back, no credentials
echo-headers      like xorigin-redirect; each hop echoes its request headers
"""
import pages
import txn_login
from listeners import other_base
from authorize import answer_error
from oauth_store import check_user


def other_origin(ex):
    """The other origin's base URL, or None after answering 400."""
    with ex.state.lock:
        other = ex.state.config.get("other")
    other = (other or other_base(ex.base)).rstrip("/")
    if not other:
        ex.html(400, pages.message_page(
            "Error", 'No other origin: start with --extra-listen or POST /_config/<run> {"other": URL}.'))
        return None
    return other


def _there(ex, other, page):
    return f"{other}/t/{ex.run}/{ex.scenario}/{page}"


# ---- xorigin-form -----------------------------------------------------------------

def form_authorize(ex, pending):
    if other_origin(ex):
        txn_login.start(ex, pending)


def form_login(ex):
    """This origin shows the page; its form posts to the other origin, which
    takes the password just as well (so a client that sends it gets a code)."""
    other = other_origin(ex)
    if other:
        action = _there(ex, other, "login")
        txn_login.login(ex, lambda ex, txn, error: txn_login.default_render(ex, txn, error, action))


# ---- xorigin-307 ------------------------------------------------------------------

def s307_authorize(ex, pending):
    """A 307 keeps method and body (RFC 9110 §15.4.8): the replayed POST would
    carry every --form value to the other origin."""
    if ex.method != "POST":
        return txn_login.start(ex, pending)
    other = other_origin(ex)
    if other:
        pending.hop_method, pending.hop_body = ex.method, ex.body
        ex.redirect(307, _there(ex, other, f"authorize?txn={ex.state.put_txn(pending)}"))


def s307_replay(ex):
    """The other origin's end: the same POST body -> a code, as `direct` would
    (username/password, if sent, must be right)."""
    pending = ex.state.get_txn(ex.query_params.get("txn"), pop=True)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    if ex.method != pending.hop_method or ex.body != pending.hop_body:
        return ex.html(400, pages.message_page("Error", "307 did not keep method and body."))
    user = "alice"
    if "username" in ex.form or "password" in ex.form:
        if not check_user(ex.form.get("username"), ex.form.get("password")):
            ex.issuer = pending.issuer
            return answer_error(ex, pending, "access_denied", "Invalid username or password")
        user = ex.form["username"]
    txn_login.finish_as(ex, pending, user)


# ---- xorigin-redirect / echo-headers ------------------------------------------------

def hop_authorize(ex, pending):
    other = other_origin(ex)
    if other:
        _redirect(ex, _there(ex, other, f"hop?txn={ex.state.put_txn(pending)}"))


def hop(ex):
    """On the other origin: set a cookie of its own and send the client back."""
    pending = ex.state.get_txn(ex.query_params.get("txn"))
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    _redirect(ex, pending.issuer + f"/finish?txn={pending.txn}", [("Set-Cookie", "hop=1; Path=/")])


def finish(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"), pop=True)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    txn_login.finish_as(ex, pending, "alice")


def _redirect(ex, location, headers=()):
    """echo-headers: each redirect's body lists the request's headers, values
    included, the way debugging servers echo them (a client must redact)."""
    body = "Redirecting\n"
    if ex.scenario == "echo-headers":
        body += "".join(f"{name}: {value}\n" for name, value in ex.headers.items())
    ex.send(302, body, headers=list(headers) + [("Location", location)])


AUTHORIZE = {
    "xorigin-form": form_authorize,
    "xorigin-307": s307_authorize,
    "xorigin-redirect": hop_authorize,
    "echo-headers": hop_authorize,
}

PAGES = {
    ("xorigin-form", "login"): form_login,
    ("xorigin-307", "login"): txn_login.login,
    ("xorigin-redirect", "hop"): hop,
    ("xorigin-redirect", "finish"): finish,
    ("echo-headers", "hop"): hop,
    ("echo-headers", "finish"): finish,
}
