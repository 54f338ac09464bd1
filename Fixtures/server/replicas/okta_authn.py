"""Okta's Classic Authentication API (`/api/v1/authn`): primary
authentication, factor verification (TOTP, SMS, push polling) and cancel,
with the transaction state machine behind the stateToken.

    POST /api/v1/authn {username, password[, stateToken][, options]}
        -> SUCCESS (sessionToken) | MFA_REQUIRED | PASSWORD_EXPIRED | LOCKED_OUT
           | 401 E0000004 "Authentication failed"
    POST /api/v1/authn {stateToken}                 -> the transaction as it is
    POST /api/v1/authn/factors/{id}/verify {stateToken, passCode}
        TOTP: SUCCESS | 403 E0000068 "Invalid Passcode/Answer"
        SMS:  without passCode MFA_CHALLENGE (CHALLENGE), then the code
        push: MFA_CHALLENGE WAITING, polled on the same href until the run's
              `okta_push_result` (WAITING, REJECTED, TIMEOUT or APPROVED)
    POST /api/v1/authn/cancel {stateToken}

Sources: the Authentication API reference, Okta's error catalogue,
okta-auth-js lib/authn/* and test/support/xhr/*, the Sign-In Widget
src/v1/models/PrimaryAuth.js (what a browser sends), saml2aws
pkg/provider/okta/okta.go (what headless clients send). okta.md says more.
"""
import secrets

from . import okta_state as st
from .okta_authn_json import transaction
from .okta_http import error, read_json
from .okta_oauth import config, root
from .okta_users import factor_by_id, find, password_ok, totp_ok

LOCKOUT_DEFAULT = 10   # Okta's default password policy: locked after 10 failures
INVALID_TOKEN = ("E0000011", "Invalid token provided")
BAD_STATE = ("E0000079", "This operation is not allowed in the current authentication state.")


def _answer(ex, tx, session_token=""):
    ex.json_response(200, transaction(root(ex), tx, session_token))


def _succeed(ex, tx):
    tx.status = "SUCCESS"
    token = st.issue_session_token(ex.state, tx.user.login)
    if tx.key is None:
        st.get(ex.state, "authn", tx.token, pop=True)  # done: only the sessionToken lives on
    _answer(ex, tx, token)


def _locked(ex, user) -> bool:
    threshold = config(ex).get("okta_lockout_threshold", LOCKOUT_DEFAULT)
    return user.locked or st.failures(ex.state, ex.scenario, user.login) >= threshold


def primary(ex, idx_org: bool):
    if idx_org and not config(ex).get("okta_classic_api"):
        # An Identity Engine org whose apps are not allowed the Classic API.
        return error(ex, 403, "E0000015", "You do not have permission to access the feature you are requesting")
    body = read_json(ex)
    if body is None:
        return
    token = body.get("stateToken")
    tx = None
    if token is not None:
        tx = st.live_authn(ex.state, token)
        if tx is None:
            return error(ex, 403, *INVALID_TOKEN)
        if "username" not in body and "password" not in body:
            return _answer(ex, tx)  # resume: the transaction as it stands
        if tx.status != "UNAUTHENTICATED":
            return error(ex, 403, *BAD_STATE)
    username, password = body.get("username"), body.get("password")
    user = find(username) if isinstance(username, str) else None
    if user is None or not isinstance(password, str) or not password:
        return error(ex, 401, "E0000004", "Authentication failed")
    if _locked(ex, user):
        locked = st.AuthnTx(token or st.okta_token(), "LOCKED_OUT", user=user, key=tx and tx.key)
        st.get(ex.state, "authn", locked.token, pop=True)
        return _answer(ex, locked)
    if not password_ok(user, password):
        st.add_failure(ex.state, ex.scenario, user.login)
        return error(ex, 401, "E0000004", "Authentication failed")
    st.clear_failures(ex.state, ex.scenario, user.login)
    if tx is None:
        tx = st.AuthnTx(st.okta_token(), "UNAUTHENTICATED")
        st.put(ex.state, "authn", tx.token, tx)
    tx.user = user
    if user.password_expired:
        tx.status = "PASSWORD_EXPIRED"
        return _answer(ex, tx)
    if user.factors:
        tx.status = "MFA_REQUIRED"
        return _answer(ex, tx)
    _succeed(ex, tx)


def verify(ex, factor_id: str):
    body = read_json(ex)
    if body is None:
        return
    tx = st.live_authn(ex.state, body.get("stateToken"))
    if tx is None:
        return error(ex, 403, *INVALID_TOKEN)
    if tx.status not in ("MFA_REQUIRED", "MFA_CHALLENGE"):
        return error(ex, 403, *BAD_STATE)
    factor = factor_by_id(tx.user, factor_id)
    if factor is None:
        return error(ex, 404, "E0000007", f"Not found: Resource not found: {factor_id} (UserFactor)")
    pass_code = body.get("passCode")
    if factor.kind == "totp":
        if totp_ok(factor, pass_code):
            return _succeed(ex, tx)
        return _wrong_code(ex)
    if factor.kind == "sms":
        if pass_code is None or tx.factor is not factor:
            tx.status, tx.factor, tx.factor_result = "MFA_CHALLENGE", factor, "CHALLENGE"
            tx.sms_code = "%06d" % secrets.randbelow(10 ** 6)  # "sent" to a phone no one has
            return _answer(ex, tx)
        if isinstance(pass_code, str) and secrets.compare_digest(pass_code, tx.sms_code):
            return _succeed(ex, tx)
        return _wrong_code(ex)
    return _push(ex, tx, factor)


def _wrong_code(ex):
    error(ex, 403, "E0000068", "Invalid Passcode/Answer",
          ["Your passcode doesn't match our records. Please try again."])


def _push(ex, tx, factor):
    """The first verify sends the push (WAITING); every later one is a poll,
    answered with what the phone did: the run's `okta_push_result`."""
    if tx.factor is not factor:
        tx.status, tx.factor, tx.factor_result = "MFA_CHALLENGE", factor, "WAITING"
        return _answer(ex, tx)
    result = str(config(ex).get("okta_push_result", "WAITING")).upper()
    if result == "APPROVED":
        return _succeed(ex, tx)
    tx.factor_result = result if result in ("REJECTED", "TIMEOUT") else "WAITING"
    _answer(ex, tx)


def cancel(ex):
    body = read_json(ex)
    if body is None:
        return
    if st.get(ex.state, "authn", body.get("stateToken"), pop=True) is None:
        return error(ex, 403, *INVALID_TOKEN)
    ex.json_response(200, {"_embedded": {}})
