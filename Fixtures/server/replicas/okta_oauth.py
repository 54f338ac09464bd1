"""The Okta replica's authorization server (`<org>/oauth2/default`) and the
ways a signed-in user gets back to it.

Authorize without a session: a Classic org redirects to its sign-in page
`/login/login.htm?fromURI=<authorize/redirect?okta_key=…>`; an Identity
Engine org answers the sign-in page itself, holding the transaction's state
token. With a session (cookie `sid`) or a one-time `sessionToken` parameter
(okta-auth-js lib/oidc/endpoints/authorize.ts sends it), the code is issued
at once. Sessions come from /login/sessionCookieRedirect (Sign-In Widget
src/v1/util/RouterUtil.js), /login/step-up/redirect (a Classic transaction
begun by the page) or /login/token/redirect (IDX `success`).
Request validation, codes, PKCE and the token endpoint are the fixture's own
(authorize.py, token_endpoint.py).
"""
import secrets
from urllib.parse import quote, urlsplit

import token_endpoint
from authorize import answer_code, answer_error, validate

from . import okta_state as st
from .okta_http import cookie, page_cookies
from .okta_pages import error_page, widget_page

AS_PATH = "oauth2/default"


def root(ex) -> str:
    """The org's base URL (the scenario root)."""
    return ex.issuer[:-len("/" + AS_PATH)]


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def _session_user(ex):
    entry = st.get(ex.state, "sessions", ex.cookies.get("sid", ""))
    return entry[1] if entry is not None and entry[0] == ex.scenario else None


def new_session(ex, login: str) -> tuple:
    """Sign `login` in: a new `sid`, as its Set-Cookie header."""
    sid = "102" + secrets.token_urlsafe(18)
    st.put(ex.state, "sessions", sid, (ex.scenario, login))
    return cookie("sid", sid)


def config(ex) -> dict:
    return ex.state.config if isinstance(ex.state.config, dict) else {}


def authorize(ex, idx: bool):
    pending = validate(ex)
    if pending is None:
        return
    p = ex.params()
    if "sessionToken" in p:
        login = st.redeem_session_token(ex.state, p["sessionToken"])
        if login is not None:
            return answer_code(ex, pending, login, [new_session(ex, login)])
        # An unknown or used sessionToken is no session: the sign-in follows.
    user = _session_user(ex)
    if user is not None and p.get("prompt") != "login":
        return answer_code(ex, pending, user)
    if p.get("prompt") == "none":
        return answer_error(ex, pending, "login_required",
                            "The client specified not to prompt, but the user is not logged in.")
    shape = config(ex).get("okta_page_shape", "oktaData")
    if idx:
        tx = st.IdxTx(st.okta_token("02"), pending)
        st.put(ex.state, "idx", tx.handle, tx)
        return ex.html(200, widget_page(root(ex), tx.handle, shape), page_cookies())
    key = secrets.token_urlsafe(24)
    st.put(ex.state, "keys", key, pending)
    from_uri = _path(ex.issuer) + "/v1/authorize/redirect?okta_key=" + key
    ex.redirect(302, root(ex) + "/login/login.htm?fromURI=" + quote(from_uri, safe=""))


def login_page(ex):
    """Classic: the page behind `fromURI`, with an UNAUTHENTICATED
    transaction the widget can go on with (its stateToken)."""
    from_uri = ex.query_params.get("fromURI", "")
    key = from_uri.partition("okta_key=")[2]
    if not key or st.get(ex.state, "keys", key) is None:
        return ex.html(400, error_page("Sign In", "The sign-in request is invalid or has expired."))
    tx = st.AuthnTx(st.okta_token(), "UNAUTHENTICATED", key=key)
    st.put(ex.state, "authn", tx.token, tx)
    shape = config(ex).get("okta_page_shape", "oktaData")
    ex.html(200, widget_page(root(ex), tx.token, shape, from_uri), page_cookies())


def authorize_redirect(ex):
    """`fromURI`: the parked authorization request, answered once signed in."""
    key = ex.query_params.get("okta_key", "")
    pending = st.get(ex.state, "keys", key)
    if pending is None:
        return ex.html(400, error_page("Sign In", "The sign-in request is invalid or has expired."))
    user = _session_user(ex)
    if user is None:
        from_uri = _path(ex.issuer) + "/v1/authorize/redirect?okta_key=" + key
        return ex.redirect(302, root(ex) + "/login/login.htm?fromURI=" + quote(from_uri, safe=""))
    st.get(ex.state, "keys", key, pop=True)
    answer_code(ex, pending, user)


def _same_origin(ex, url: str) -> bool:
    """Okta redirects only to trusted origins; here: the org's own."""
    a, b = urlsplit(url), urlsplit(ex.base)
    return (a.scheme, a.netloc) == (b.scheme, b.netloc)


def session_cookie_redirect(ex):
    """GET /login/sessionCookieRedirect?token=<sessionToken>&redirectUrl=…"""
    target = ex.query_params.get("redirectUrl", "")
    if not _same_origin(ex, target):
        return ex.html(403, error_page("Sign In", "The redirect URL is not a trusted origin."))
    login = st.redeem_session_token(ex.state, ex.query_params.get("token"))
    headers = [new_session(ex, login)] if login is not None else []
    ex.redirect(302, target, headers)


def step_up_redirect(ex):
    """GET /login/step-up/redirect?stateToken=: a SUCCESS transaction begun
    by the sign-in page sets the session and goes back to `fromURI`."""
    tx = st.live_authn(ex.state, ex.query_params.get("stateToken"))
    if tx is None or tx.status != "SUCCESS" or tx.key is None:
        return ex.html(403, error_page("Sign In", "Invalid token provided"))
    st.get(ex.state, "authn", tx.token, pop=True)
    target = ex.issuer + "/v1/authorize/redirect?okta_key=" + tx.key
    ex.redirect(302, target, [new_session(ex, tx.user.login)])


def token_redirect(ex):
    """GET /login/token/redirect?stateToken=: IDX `success` → the client."""
    tx = st.live_idx(ex.state, ex.query_params.get("stateToken"))
    if tx is None or not tx.done:
        return ex.html(403, error_page("Sign In", "Invalid token provided"))
    st.get(ex.state, "idx", tx.handle, pop=True)
    answer_code(ex, tx.pending, tx.user.login, [new_session(ex, tx.user.login)])


def metadata(ex) -> dict:
    """The default authorization server's discovery document."""
    return {
        "issuer": ex.issuer,
        "authorization_endpoint": ex.issuer + "/v1/authorize",
        "token_endpoint": ex.issuer + "/v1/token",
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "subject_types_supported": ["public"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
        "code_challenge_methods_supported": ["S256"],
    }


def token(ex):
    token_endpoint.token(ex)

