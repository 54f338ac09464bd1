"""Per-run state of the Auth0 replica (replica_tables, provider "auth0"):
transactions by their `state` (what /u/* pages and /login carry), browser
sessions by the `auth0` cookie, one-time `wresult` tokens of Classic Login,
and each user's count of failed passwords (brute-force protection).
"""
import secrets
import time
from dataclasses import dataclass, field
from typing import Optional

from . import replica_tables

PROVIDER = "auth0"
TX_LIFETIME = 600.0


def new_state() -> str:
    """Auth0's transaction states are opaque base64url strings ("hKFo2SB…")."""
    return "hKFo2SB" + secrets.token_urlsafe(30)


@dataclass
class Tx:
    state: str
    pending: object                  # the authorization request
    session: str                     # the `auth0` cookie the transaction belongs to
    username: str = ""               # identifier step done
    user: object = None              # password checked: auth0_users.User
    mfa_done: bool = False
    consented: bool = False
    csrf: str = ""                   # Classic: the page's `_csrf` token
    sms_code: str = ""
    expires: float = field(default_factory=lambda: time.monotonic() + TX_LIFETIME)


@dataclass
class Session:
    scenario: str
    user: Optional[str] = None       # signed in as


def put(state, table, key, value):
    replica_tables.put(state, PROVIDER, table, key, value)


def get(state, table, key, pop=False):
    return replica_tables.get(state, PROVIDER, table, key, pop)


def live(state, tx_state) -> Optional[Tx]:
    tx = get(state, "txs", tx_state)
    return tx if tx is not None and time.monotonic() <= tx.expires else None


def failures(state, scenario, name, add=0) -> int:
    return replica_tables.count(state, PROVIDER, (scenario, name), add)


def clear_failures(state, scenario, name):
    replica_tables.reset(state, PROVIDER, (scenario, name))
