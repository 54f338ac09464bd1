"""Per-run state of the Okta replica (replica_tables, provider "okta"):
Classic transactions (stateToken), Identity Engine transactions
(stateHandle), one-time sessionTokens, signed-in sessions (the `sid`
cookie), parked authorization requests (`okta_key`) and each user's count of
failed passwords (the lockout policy).
"""
import secrets
import time
from dataclasses import dataclass, field
from typing import Optional

from . import replica_tables

TX_LIFETIME = 300.0        # Okta's transactions expire after 5 minutes
SESSION_TOKEN_LIFETIME = 300.0


def okta_token(prefix: str = "00") -> str:
    """A token shaped like Okta's (`00` + base64url), always holding a `-`,
    so that a page that JS-escapes it (`\\x2D`) really changes it."""
    raw = secrets.token_urlsafe(30)
    return prefix + raw[:12] + "-" + raw[13:]


@dataclass
class AuthnTx:
    """A Classic Authentication API transaction (its stateToken)."""
    token: str
    status: str
    user: object = None              # okta_users.User once known
    key: Optional[str] = None        # okta_key of the page that started it
    factor: object = None            # the factor of an MFA_CHALLENGE
    factor_result: str = ""          # WAITING | REJECTED | TIMEOUT | CHALLENGE
    sms_code: str = ""
    expires: float = field(default_factory=lambda: time.monotonic() + TX_LIFETIME)


@dataclass
class IdxTx:
    """An Identity Engine transaction (its stateHandle)."""
    handle: str
    pending: object                  # the authorization request behind the page
    step: str = "identify"
    user: object = None
    current: object = None           # the factor (or "password") being challenged
    method: str = ""                 # its method type (otp, totp, push, sms)
    sms_code: str = ""
    done: bool = False               # SUCCESS reached: /login/token/redirect may answer
    expires: float = field(default_factory=lambda: time.monotonic() + TX_LIFETIME)


PROVIDER = "okta"
# Tables: authn (stateToken -> AuthnTx), idx (stateHandle -> IdxTx),
# session_tokens (sessionToken -> (login, expires)), sessions (sid ->
# (scenario, login)), keys (okta_key -> Pending).


def put(state, table: str, key, value):
    replica_tables.put(state, PROVIDER, table, key, value)


def get(state, table: str, key, pop=False):
    return replica_tables.get(state, PROVIDER, table, key, pop)


def live_authn(state, token) -> Optional[AuthnTx]:
    tx = get(state, "authn", token)
    return tx if tx is not None and time.monotonic() <= tx.expires else None


def live_idx(state, handle) -> Optional[IdxTx]:
    tx = get(state, "idx", handle)
    return tx if tx is not None and time.monotonic() <= tx.expires else None


def issue_session_token(state, login: str) -> str:
    token = okta_token("20111")
    put(state, "session_tokens", token, (login, time.monotonic() + SESSION_TOKEN_LIFETIME))
    return token


def redeem_session_token(state, token) -> Optional[str]:
    """The login a sessionToken stands for, once (Okta: one-time use)."""
    entry = get(state, "session_tokens", token, pop=True)
    return entry[0] if entry is not None and time.monotonic() <= entry[1] else None


def failures(state, scenario, login) -> int:
    return replica_tables.count(state, PROVIDER, (scenario, login))


def add_failure(state, scenario, login) -> int:
    return replica_tables.count(state, PROVIDER, (scenario, login), 1)


def clear_failures(state, scenario, login):
    replica_tables.reset(state, PROVIDER, (scenario, login))
