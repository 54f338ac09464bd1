"""Login forms whose target a browser works out with more than the action
attribute as written (HTML §4.10.21.3, the URL Standard's parser): a
client that reads them another way posts the password where the form did
not say, or in a URL.

authorize -> 302 <issuer>/page?txn=T, the login page of the scenario
(hidden txn). A POST to `page` itself is a wrong target: the page again
with "This is not where the form posts." (status 200). `wrong` answers 400
"wrong target" to anything. A right password at the true target -> 302
with the code; a wrong one -> the page again with the usual alert.

form-action-newline   action="\\n  lo\\tg\\nin  " (a newline and a tab inside,
                      spaces and a newline around): a browser posts to `login`
form-base-href        <base href="<issuer>/sub/"> and action="login": the
                      form posts to <issuer>/sub/login (not <issuer>/login,
                      which is `wrong`)
form-base-origin      <base href="<other>/t/<run>/form-base-origin/sub/">:
                      the form posts to the other origin (start with
                      --extra-listen; a client must apply its trusted-origin rule)
form-formaction       <form method="get" action="wrong"> whose submit button
                      says formaction="login" formmethod="post": a browser
                      POSTs to `login` (never a GET carrying the password)
"""
from html import escape

import pages
from authorize import answer_code
from oauth_store import check_user
from xorigin import other_origin

SCENARIOS = {"form-action-newline", "form-base-href", "form-base-origin", "form-formaction"}
WRONG_PLACE = "This is not where the form posts."


def authorize(ex, pending):
    ex.redirect(302, f"{ex.issuer}/page?txn={ex.state.put_txn(pending)}")


def _page(ex, txn, error=""):
    head, action, method, button = "", "login", "post", '<button type="submit">Sign in</button>'
    if ex.scenario == "form-action-newline":
        action = "\n  lo\tg\nin  "
    elif ex.scenario == "form-base-href":
        head = f'<base href="{escape(ex.issuer)}/sub/">'
    elif ex.scenario == "form-base-origin":
        other = other_origin(ex)
        if other is None:
            return None
        head = f'<base href="{escape(other)}/t/{ex.run}/{ex.scenario}/sub/">'
    elif ex.scenario == "form-formaction":
        action, method = "wrong", "get"
        button = '<button type="submit" formaction="login" formmethod="post">Sign in</button>'
    alert = f'<div class="alert alert-error" role="alert">{escape(error)}</div>\n' if error else ""
    form = (f'{alert}<form method="{method}" action="{escape(action)}" class="login">\n'
            f'  <input type="hidden" name="txn" value="{escape(txn)}">\n'
            '  <label>Username <input type="text" name="username"></label>\n'
            '  <label>Password <input type="password" name="password"></label>\n'
            f'  {button}\n</form>')
    # The frame's own search form sits at the root: no <base> changes it.
    return pages._layout("Sign in", form, head).replace('action="/search"', f'action="{escape(ex.base)}/search"')


def page(ex):
    txn = ex.params().get("txn")
    if ex.state.get_txn(txn) is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    html = _page(ex, txn, WRONG_PLACE if ex.method == "POST" else "")
    if html is not None:
        ex.html(200, html)


def login(ex):
    txn = ex.params().get("txn")
    pending = ex.state.get_txn(txn)
    if pending is None or ex.method != "POST":
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    if not check_user(ex.form.get("username"), ex.form.get("password")):
        html = _page(ex, txn, "Invalid username or password.")
        return ex.html(200, html) if html is not None else None
    ex.state.get_txn(txn, pop=True)
    ex.issuer = pending.issuer or ex.issuer
    answer_code(ex, pending, ex.form["username"])


AUTHORIZE = {name: authorize for name in SCENARIOS}
PAGES = {
    **{(name, "page"): page for name in SCENARIOS},
    **{(name, "wrong"): lambda ex: ex.send(400, "wrong target\n") for name in SCENARIOS},
    ("form-action-newline", "login"): login,
    ("form-base-href", "login"): lambda ex: ex.send(400, "wrong target\n"),
    ("form-base-href", "sub/login"): login,
    ("form-base-origin", "sub/login"): login,
    ("form-formaction", "login"): login,
}
