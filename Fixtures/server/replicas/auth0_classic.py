"""Auth0 Classic Login (`auth0-classic`): the Lock page, its credentials
call and the callback.

    /authorize -> /login?state=&client=&protocol=oauth2&… (Lock page; cookie `_csrf`)
    POST /usernamepassword/login (JSON, what auth0.js's hosted-pages login
         sends: client_id, redirect_uri, tenant, response_type, scope, state,
         _csrf, _intstate, nonce, connection, username, password[, mfa_code])
        -> 200 text/html form (wa, wresult, wctx) to /login/callback
         | 401 invalid_user_password "Wrong email or password." | a0.mfa_required …
    POST /login/callback (wa=wsignin1.0, wresult, wctx) -> /authorize/resume?state=

The page's `_csrf` token is bound to the `_csrf` cookie (double submit: the
token is an HMAC of the transaction under the cookie's secret). MFA: the
one-time code in `mfa_code` after `a0.mfa_required`, as Lock does it
(src/connection/database/actions.js, src/core/index.js). Sources and texts:
auth0.md.
"""
import base64
import hashlib
import hmac
import json
import secrets
import time
from urllib.parse import urlsplit

from . import auth0_lock as lock
from . import auth0_state as st
from .auth0_oauth import TENANT, config, error_page, own_tx, root
from .auth0_users import CONNECTION, find, otp_ok, password_ok
from oauth_store import CLIENTS

LOCKOUT_DEFAULT = 10
WRESULT_LIFETIME = 60.0


def _csrf_token(secret: str, tx_state: str) -> str:
    mac = hmac.new(secret.encode(), tx_state.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()


def login_page(ex):
    tx = own_tx(ex, ex.query_params.get("state"))
    if tx is None or ex.query_params.get("client") != tx.pending.client_id:
        return error_page(ex, 400, "invalid_request", "Invalid state")
    secret = secrets.token_urlsafe(18)
    tx.csrf = _csrf_token(secret, tx.state)
    shape = config(ex).get("auth0_lock_config", "nested")
    path = urlsplit(root(ex)).path + "/usernamepassword/login"  # sent to that call only
    ex.html(200, lock.login_page(root(ex), tx, tx.csrf, shape),
            [("Set-Cookie", f"_csrf={secret}; Path={path}; HttpOnly")])


def client_js(ex, client_id):
    if client_id not in CLIENTS:
        return ex.send(404, "Not Found\n")
    ex.send(200, lock.client_js(root(ex), client_id), "application/x-javascript; charset=utf-8")


def _fail(ex, status, name, code, description):
    ex.json_response(status, {"name": name, "code": code, "description": description, "statusCode": status})


def login(ex):
    """POST /usernamepassword/login."""
    body = ex.json if isinstance(ex.json, dict) else None
    if body is None:
        return _fail(ex, 400, "BadRequestError", "invalid_request", "Invalid request body")
    tx = own_tx(ex, body.get("state"))
    if tx is None or body.get("client_id") != tx.pending.client_id:
        return _fail(ex, 400, "BadRequestError", "invalid_request", "Invalid state")
    secret = ex.cookies.get("_csrf", "")
    if not tx.csrf or not secret or not isinstance(body.get("_csrf"), str) \
            or not secrets.compare_digest(body["_csrf"], _csrf_token(secret, tx.state)):
        return _fail(ex, 403, "ForbiddenError", "invalid_csrf", "Invalid CSRF token")
    if body.get("connection") != CONNECTION:
        return _fail(ex, 400, "BadRequestError", "invalid_connection", "the connection was not found")
    user = find(body.get("username"))
    threshold = config(ex).get("auth0_lockout_threshold", LOCKOUT_DEFAULT)
    if user is not None and user.blocked:
        return _fail(ex, 401, "UnauthorizedError", "unauthorized", "user is blocked")
    if user is not None and st.failures(ex.state, ex.scenario, user.name) >= threshold:
        return _fail(ex, 429, "AnomalyDetected", "too_many_attempts",
                     "Your account has been blocked after multiple consecutive login attempts.")
    if user is None or not password_ok(user, body.get("password")):
        if user is not None:
            st.failures(ex.state, ex.scenario, user.name, 1)
        status = int(config(ex).get("auth0_wrong_password_status", 401))
        return _fail(ex, status, "ValidationError", "invalid_user_password", "Wrong email or password.")
    st.clear_failures(ex.state, ex.scenario, user.name)
    if user.factor:
        code = body.get("mfa_code")
        if code is None:
            return _fail(ex, 401, "UnauthorizedError", "a0.mfa_required", "Multifactor authentication required")
        if user.factor != "otp" or not otp_ok(code):
            return _fail(ex, 401, "UnauthorizedError", "a0.mfa_invalid_code", "Wrong or expired code.")
    wresult = _wresult(user)
    st.put(ex.state, "wresults", wresult, (tx.state, user, time.monotonic() + WRESULT_LIFETIME))
    wctx = {"strategy": "auth0", "auth0Client": "", "tenant": TENANT, "connection": CONNECTION,
            "client_id": tx.pending.client_id, "response_type": "code", "scope": tx.pending.scope,
            "protocol": "oauth2", "redirect_uri": tx.pending.redirect_uri, "state": tx.state,
            "nonce": tx.pending.nonce or "", "sid": secrets.token_urlsafe(16), "audience": "",
            "realm": CONNECTION}
    ex.html(200, lock.callback_form(root(ex), wresult, wctx))


def _wresult(user) -> str:
    """An opaque signed-looking token (a JWT's three parts); the replica
    keeps it server-side, one-time, instead of verifying a signature."""
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()
    return ".".join([part({"alg": "HS256", "typ": "JWT"}),
                     part({"sub": user.user_id, "iat": int(time.time())}),
                     secrets.token_urlsafe(32)])


def callback(ex):
    """POST /login/callback: the form the login answered, as the page posts it."""
    form = ex.form
    entry = st.get(ex.state, "wresults", form.get("wresult"), pop=True)
    try:
        ctx = json.loads(form.get("wctx", ""))
    except ValueError:
        ctx = None
    if form.get("wa") != "wsignin1.0" or entry is None or time.monotonic() > entry[2] \
            or not isinstance(ctx, dict) or ctx.get("state") != entry[0]:
        return error_page(ex, 400, "invalid_request", "Invalid wresult or wctx")
    tx = own_tx(ex, entry[0])
    if tx is None:
        return error_page(ex, 400, "invalid_request", "Invalid state")
    tx.user, tx.mfa_done = entry[1], True
    ex.redirect(302, f"{root(ex)}/authorize/resume?state={tx.state}")
