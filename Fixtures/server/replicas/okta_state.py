"""Per-run state of the Okta replica, kept in RunState.ext["okta"] and
touched only under the run's lock: Classic transactions (stateToken),
Identity Engine transactions (stateHandle), one-time sessionTokens, signed-in
sessions (the `sid` cookie), parked authorization requests (`okta_key`) and
each user's count of failed passwords (the lockout policy).
"""
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

TX_LIFETIME = 300.0        # Okta's transactions expire after 5 minutes
SESSION_TOKEN_LIFETIME = 300.0
MAX_ENTRIES = 20000        # per table: batch runs stay flat (oldest dropped)


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


class OktaState:
    def __init__(self):
        self.authn: dict = {}           # stateToken -> AuthnTx
        self.idx: dict = {}             # stateHandle -> IdxTx
        self.session_tokens: dict = {}  # sessionToken -> (login, expires)
        self.sessions: dict = {}        # sid -> (scenario, login)
        self.keys: dict = {}            # okta_key -> Pending
        self.failures: dict = {}        # (scenario, login) -> failed passwords


_create = threading.Lock()


def of(state) -> OktaState:
    with _create:
        found = state.ext.get("okta")
        if found is None:
            found = state.ext["okta"] = OktaState()
    return found


def _bound(table: dict):
    while len(table) > MAX_ENTRIES:
        del table[next(iter(table))]


def put(state, table: str, key, value):
    with state.lock:
        tab = getattr(of(state), table)
        tab[key] = value
        _bound(tab)


def get(state, table: str, key, pop=False):
    if not isinstance(key, str):  # a JSON body may put anything there
        return None
    with state.lock:
        tab = getattr(of(state), table)
        return tab.pop(key, None) if pop else tab.get(key)


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
    with state.lock:
        return of(state).failures.get((scenario, login), 0)


def add_failure(state, scenario, login) -> int:
    with state.lock:
        table = of(state).failures
        table[(scenario, login)] = table.get((scenario, login), 0) + 1
        return table[(scenario, login)]


def clear_failures(state, scenario, login):
    with state.lock:
        of(state).failures.pop((scenario, login), None)
