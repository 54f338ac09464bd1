"""A login form whose fields are not called username and password.

login-devise   Rails/Devise: `user[email]` and `user[password]`, a hidden
               `authenticity_token`, a `commit` button. The user is the
               email's local part: alice@fixture.test is alice,
               user7@fixture.test is user7 (passwords as in Fixed data).
"""
from html import escape

import pages
import txn_login
from oauth_store import check_user


def _devise_page(txn, error=""):
    alert = f'<p class="alert">{escape(error)}</p>\n' if error else ""
    return pages.page("Log in", f"""{alert}<form class="new_user" id="new_user" action="login?txn={escape(txn)}" accept-charset="UTF-8" method="post">
  <input type="hidden" name="authenticity_token" value="fixture-authenticity-token" autocomplete="off">
  <div class="field"><label for="user_email">Email</label>
    <input autofocus="autofocus" autocomplete="email" type="email" value="" name="user[email]" id="user_email"></div>
  <div class="field"><label for="user_password">Password</label>
    <input autocomplete="current-password" type="password" name="user[password]" id="user_password"></div>
  <div class="field"><input name="user[remember_me]" type="hidden" value="0" autocomplete="off">
    <input type="checkbox" value="1" name="user[remember_me]" id="user_remember_me"> Remember me</div>
  <div class="actions"><input type="submit" name="commit" value="Log in" data-disable-with="Log in"></div>
</form>""")


def devise_login(ex):
    txn = ex.params().get("txn")
    pending = ex.state.get_txn(txn)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown or expired transaction."))
    if ex.method != "POST":
        return ex.html(200, _devise_page(txn))
    if ex.form.get("authenticity_token") != "fixture-authenticity-token":
        return ex.html(422, pages.message_page("Error", "Can't verify CSRF token authenticity."))
    user = ex.form.get("user[email]", "").partition("@")[0]
    if not check_user(user, ex.form.get("user[password]")):
        return ex.html(200, _devise_page(txn, "Invalid Email or password."))
    ex.state.get_txn(txn, pop=True)
    txn_login.finish_as(ex, pending, user)


AUTHORIZE = {"login-devise": txn_login.start}
PAGES = {("login-devise", "login"): devise_login}
