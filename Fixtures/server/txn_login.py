"""A login step keyed by a transaction id instead of a cookie.

authorize -> 302 <issuer>/login?txn=T -> login form (hidden txn) -> POST ->
on_success. Several scenarios share it and differ only in how the page looks
(render), where the form posts (action), what a wrong password returns and
what follows a right one. No cookie is needed, so it also works when the
form posts to another origin (xorigin.py).
"""
import pages
from authorize import answer_code
from oauth_store import check_user

WRONG = "Invalid username or password."


def start(ex, pending, headers=()):
    """Park the request under its txn and send the client to the login page."""
    txn = ex.state.put_txn(pending)
    ex.redirect(302, f"{ex.issuer}/login?txn={txn}", headers)


def default_render(ex, txn, error, action="login"):
    return pages.login_page(action, {"txn": txn}, error)


def finish_as(ex, pending, user):
    """Answer with a code bound to the issuer that validated the request,
    whichever listener (origin) this last step arrived on."""
    ex.issuer = pending.issuer or ex.issuer
    answer_code(ex, pending, user)


def login(ex, render=default_render, fail_status=200, on_success=finish_as):
    """GET: the form. POST: check alice/wonderland (or userN/pw-N)."""
    txn = ex.params().get("txn")
    pending = ex.state.get_txn(txn)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown or expired transaction."))
    if ex.method != "POST":
        return ex.html(200, render(ex, txn, ""))
    username = ex.form.get("username")
    if not check_user(username, ex.form.get("password")):
        return ex.html(fail_status, render(ex, txn, WRONG))
    ex.state.get_txn(txn, pop=True)
    on_success(ex, pending, username)
