"""Auth0 Universal Login (`auth0-ul`): the server-rendered prompts and the
transaction behind their `state`.

    /authorize -> /u/login/identifier?state= (username)
               -> /u/login/password?state= (password)   [or /u/login: both]
               -> /authorize/resume?state= -> /u/mfa-otp-challenge | /u/mfa-push-challenge-push
                  | /u/mfa-sms-challenge -> /u/consent (run config) -> resume -> redirect_uri

Every page checks its transaction: the `state` query (and, on POST, the
form's `state`) must be a live transaction of this browser's `auth0`
cookie. A page the transaction is not at redirects to the one it is at
(Auth0 keeps the user on the current prompt). Field names and actions from
auth0-acul-js (screens/login-id, login-password, mfa-otp-challenge,
mfa-push-challenge-push, mfa-sms-challenge, consent; utils/form-handler.ts,
utils/polling-control.ts); error codes and texts: auth0.md.
"""
import secrets

from . import auth0_pages as pages
from . import auth0_state as st
from .auth0_oauth import config, deny, error_page, next_prompt, own_tx, root
from .auth0_users import find, otp_ok, password_ok

WRONG = ("wrong-credentials", "Wrong username or password")
TOO_MANY = ("user-blocked", "Your account has been blocked after multiple consecutive login attempts.")
BLOCKED = ("user-blocked", "The user is blocked.")
INVALID_CODE = ("invalid-code", "The code you entered is invalid")
NO_USERNAME = ("required", "Username is required")
NO_PASSWORD = ("required", "Password is required")
PUSH_PENDING = ("transaction-pending", "Please accept the notification on your device to continue.")
PUSH_REJECTED = ("transaction-rejected", "The notification was rejected.")
LOCKOUT_DEFAULT = 10   # Auth0's brute-force protection blocks after 10 failures
PAGES = ("u/login/identifier", "u/login/password", "u/login", "u/mfa-otp-challenge",
         "u/mfa-push-challenge-push", "u/mfa-sms-challenge", "u/consent")


def _resume(ex, tx):
    ex.redirect(302, f"{root(ex)}/authorize/resume?state={tx.state}")


def handle(ex, page):
    tx = own_tx(ex, ex.query_params.get("state"))
    if tx is None:
        return error_page(ex, 400, "invalid_request", "Invalid state")
    expected = next_prompt(ex, tx)
    back = page == "u/login/identifier" and expected == "u/login/password"  # "Edit" the username
    if page != expected and not back:
        return _resume(ex, tx) if not expected else ex.redirect(302, f"{root(ex)}/{expected}?state={tx.state}")
    if ex.method == "GET":
        if page == "u/mfa-push-challenge-push" and "application/json" in ex.headers.get("accept", ""):
            # auth0-acul-js utils/polling-control.ts: GET the page, JSON {completed}
            done = str(config(ex).get("auth0_push_result", "WAITING")).upper() != "WAITING"
            return ex.json_response(200, {"completed": done})
        return _render(ex, tx, page)
    if ex.method != "POST":
        return error_page(ex, 405, "invalid_request", "Method not allowed")
    if ex.form.get("state") != tx.state:
        return error_page(ex, 400, "invalid_request", "Invalid state")
    POSTS[page](ex, tx)


def _render(ex, tx, page, status=200, error=None):
    client = tx.pending.client_id
    if page == "u/login/identifier":
        body = pages.login_id(tx.state, client, error)
    elif page in ("u/login/password", "u/login"):
        body = pages.login_password(tx.state, tx.username, error, with_username=page == "u/login")
    elif page == "u/mfa-otp-challenge":
        body = pages.mfa_otp(tx.state, error)
    elif page == "u/mfa-push-challenge-push":
        body = pages.mfa_push(tx.state, error)
    elif page == "u/mfa-sms-challenge":
        if not tx.sms_code:
            tx.sms_code = "%06d" % secrets.randbelow(10 ** 6)  # "sent" to a phone no one has
        body = pages.mfa_sms(tx.state, error)
    else:
        body = pages.consent(tx.state, client, tx.pending.scope.split())
    ex.html(status, body)


def _identifier(ex, tx):
    name = ex.form.get("username", "").strip()
    if not name:
        return _render(ex, tx, "u/login/identifier", 400, NO_USERNAME)
    tx.username = name
    ex.redirect(302, f"{root(ex)}/u/login/password?state={tx.state}")


def _password(ex, tx, page):
    if page == "u/login":
        tx.username = ex.form.get("username", "").strip()
        if not tx.username:
            return _render(ex, tx, page, 400, NO_USERNAME)
    password = ex.form.get("password", "")
    if not password:
        return _render(ex, tx, page, 400, NO_PASSWORD)
    user = find(tx.username)
    threshold = config(ex).get("auth0_lockout_threshold", LOCKOUT_DEFAULT)
    if user is not None and user.blocked:
        return _render(ex, tx, page, 400, BLOCKED)
    if user is not None and st.failures(ex.state, ex.scenario, user.name) >= threshold:
        return _render(ex, tx, page, 400, TOO_MANY)
    if user is None or not password_ok(user, password):
        if user is not None:
            st.failures(ex.state, ex.scenario, user.name, 1)
        return _render(ex, tx, page, 400, WRONG)
    st.clear_failures(ex.state, ex.scenario, user.name)
    tx.user = user
    _resume(ex, tx)


def _otp(ex, tx):
    if ex.form.get("action", "default") != "default":
        return _render(ex, tx, "u/mfa-otp-challenge")  # other methods: not offered here
    if not otp_ok(ex.form.get("code")):
        return _render(ex, tx, "u/mfa-otp-challenge", 400, INVALID_CODE)
    tx.mfa_done = True
    _resume(ex, tx)


def _push(ex, tx):
    result = str(config(ex).get("auth0_push_result", "WAITING")).upper()
    if ex.form.get("action") == "continue" and result == "APPROVED":
        tx.mfa_done = True
        return _resume(ex, tx)
    if ex.form.get("action") != "continue":
        return _render(ex, tx, "u/mfa-push-challenge-push")  # resend, enter a code: not offered
    _render(ex, tx, "u/mfa-push-challenge-push", 400, PUSH_REJECTED if result == "REJECTED" else PUSH_PENDING)


def _sms(ex, tx):
    code = ex.form.get("code", "")
    if ex.form.get("action", "default") == "default" and code and secrets.compare_digest(code, tx.sms_code):
        tx.mfa_done = True
        return _resume(ex, tx)
    _render(ex, tx, "u/mfa-sms-challenge", 400, INVALID_CODE)


def _consent(ex, tx):
    action = ex.form.get("action")
    if action == "accept":
        tx.consented = True
        return _resume(ex, tx)
    if action == "deny":
        return deny(ex, tx)
    _render(ex, tx, "u/consent", 400)


POSTS = {
    "u/login/identifier": _identifier,
    "u/login/password": lambda ex, tx: _password(ex, tx, "u/login/password"),
    "u/login": lambda ex, tx: _password(ex, tx, "u/login"),
    "u/mfa-otp-challenge": _otp,
    "u/mfa-push-challenge-push": _push,
    "u/mfa-sms-challenge": _sms,
    "u/consent": _consent,
}
