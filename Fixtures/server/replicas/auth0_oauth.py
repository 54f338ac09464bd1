"""The Auth0 replica's authorization server: `/authorize`, the
`/authorize/resume?state=` every login step returns to, `/oauth/token`, and
the tenant's browser session (cookies `auth0`, `auth0_compat`, `did`,
`did_compat`; the `_compat` twins are what Auth0 sets for browsers that drop
`SameSite=None`).

`/authorize` without a session: Universal Login → 302 `/u/login/identifier?
state=` (or `/u/login?state=` when identifier-first is off); Classic Login →
302 `/login?state=&client=&protocol=oauth2&…`. `/authorize/resume` sends the
transaction to its next prompt (MFA, consent) and finally to the client:
302 redirect_uri `?code&state`. Validation, codes, PKCE and the token
endpoint are the fixture's own (authorize.py, token_endpoint.py).
"""
import secrets
from html import escape
from urllib.parse import urlencode

import token_endpoint
from authorize import answer_code, answer_error, validate

from . import auth0_state as st

TENANT = "replica"


def root(ex) -> str:
    return ex.issuer.rstrip("/")


def config(ex) -> dict:
    return ex.state.config if isinstance(ex.state.config, dict) else {}


def session_id(ex) -> str:
    return ex.cookies.get("auth0") or ex.cookies.get("auth0_compat") or ""


def _cookies(sid: str) -> list:
    out = []
    for name, value in (("auth0", sid), ("did", "s%3Av0%3A" + secrets.token_urlsafe(16))):
        out.append(("Set-Cookie", f"{name}={value}; Path=/; HttpOnly; SameSite=None"))
        out.append(("Set-Cookie", f"{name}_compat={value}; Path=/; HttpOnly"))
    return out


def error_page(ex, status, code, description):
    """Auth0's error page: the error code and its description."""
    ex.html(status, f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Error</title></head>
<body><main class="error-page"><h1>Oops!, something went wrong</h1>
<p class="error-code">{escape(code)}</p><p class="error-description">{escape(description)}</p>
<p>TRACKING ID: {secrets.token_hex(12)}</p></main></body></html>
""")


def authorize(ex, classic: bool):
    pending = validate(ex)
    if pending is None:
        return
    p = ex.params()
    sid = session_id(ex)
    session = st.get(ex.state, "sessions", sid)
    if session is not None and session.scenario == ex.scenario and session.user and p.get("prompt") != "login":
        return answer_code(ex, pending, session.user)
    if p.get("prompt") == "none":
        return answer_error(ex, pending, "login_required", "Login required")
    headers = []
    if session is None or session.scenario != ex.scenario:
        sid = "s%3A" + secrets.token_urlsafe(24)
        st.put(ex.state, "sessions", sid, st.Session(ex.scenario))
        headers = _cookies(sid)
    tx = st.Tx(st.new_state(), pending, sid)
    st.put(ex.state, "txs", tx.state, tx)
    if classic:
        query = {"state": tx.state, "client": pending.client_id, "protocol": "oauth2",
                 "response_type": "code", "redirect_uri": pending.redirect_uri, "scope": pending.scope}
        target = root(ex) + "/login?" + urlencode(query)
    elif config(ex).get("auth0_identifier_first", True):
        target = root(ex) + "/u/login/identifier?state=" + tx.state
    else:
        target = root(ex) + "/u/login?state=" + tx.state
    ex.redirect(302, target, headers)


def own_tx(ex, tx_state):
    """The live transaction of this browser (its `auth0` cookie), or None."""
    tx = st.live(ex.state, tx_state)
    return tx if tx is not None and tx.session == session_id(ex) else None


def next_prompt(ex, tx) -> str:
    """Where the transaction goes next: a /u/ page path, or "" when done."""
    if tx.user is None:
        if not config(ex).get("auth0_identifier_first", True):
            return "u/login"
        return "u/login/password" if tx.username else "u/login/identifier"
    if tx.user.factor and not tx.mfa_done:
        return {"otp": "u/mfa-otp-challenge", "push": "u/mfa-push-challenge-push",
                "sms": "u/mfa-sms-challenge"}[tx.user.factor]
    if config(ex).get("auth0_consent") and not tx.consented:
        return "u/consent"
    return ""


def resume(ex):
    """GET /authorize/resume?state=: on to the next prompt or the client."""
    tx = own_tx(ex, ex.query_params.get("state"))
    if tx is None or tx.user is None:
        return error_page(ex, 400, "invalid_request", "You may have pressed the back button, refreshed "
                          "during login, opened too many login dialogs, or there is some issue with cookies.")
    step = next_prompt(ex, tx)
    if step:
        return ex.redirect(302, f"{root(ex)}/{step}?state={tx.state}")
    st.get(ex.state, "txs", tx.state, pop=True)
    st.put(ex.state, "sessions", tx.session, st.Session(ex.scenario, tx.user.name))
    answer_code(ex, tx.pending, tx.user.name)


def deny(ex, tx):
    st.get(ex.state, "txs", tx.state, pop=True)
    answer_error(ex, tx.pending, "access_denied", "User did not authorize the request")


def metadata(ex) -> dict:
    base = root(ex)
    return {
        "issuer": ex.issuer,
        "authorization_endpoint": base + "/authorize",
        "token_endpoint": base + "/oauth/token",
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["public"],
        "scopes_supported": ["openid", "profile", "offline_access", "name", "given_name",
                             "family_name", "nickname", "email", "email_verified", "picture"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
        "code_challenge_methods_supported": ["S256", "plain"],
    }


def token(ex):
    token_endpoint.token(ex)
