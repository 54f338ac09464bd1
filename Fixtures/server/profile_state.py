"""Per-run state of the signing scenarios, kept in RunState.ext["profile"]
under the run's lock: JWKS fetches, replay sets, DPoP nonces, pushed
requests, issued access tokens and what refresh tokens carry beyond
oauth_store.RefreshGrant. Also `note()`, which adds decoded JOSE objects to
the request's hit (hit["decoded"]).
"""
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

from oauth_store import random_token

PAR_PREFIX = "urn:ietf:params:oauth:request_uri:"


@dataclass
class TokenInfo:
    """An access token issued by a signing scenario."""
    client_id: str
    user: str
    scope: str
    issuer: str
    expires: float
    jkt: Optional[str] = None        # RFC 9449 binding (JWK thumbprint)
    x5t: Optional[str] = None        # RFC 8705 binding (certificate thumbprint)
    authorization_details: object = None
    resource: list = field(default_factory=list)


@dataclass
class RefreshExtra:
    auth_time: int
    jkt: Optional[str]               # public clients' refresh tokens are DPoP-bound
    authorization_details: object = None


# Bounds for batch runs of many flows: the oldest entries go first. A jti
# old enough to be dropped is refused anyway by its exp or iat window.
MAX_TOKENS = 50000
MAX_JTIS = 200000
MAX_PUSHED = 10000


def _bound(table: dict, limit: int):
    while len(table) > limit:
        del table[next(iter(table))]


class ProfileState:
    def __init__(self):
        self.jtis: dict = {}         # (kind, client or jkt, jti) -> None, oldest first
        self.nonces: list = []       # DPoP nonces handed out, newest last
        self.pushed: dict = {}       # request_uri -> (Pending, expires, client_id)
        self.tokens: dict = {}       # access token -> TokenInfo
        self.refresh: dict = {}      # refresh token -> RefreshExtra


_create_lock = threading.Lock()


def of(state) -> ProfileState:
    with _create_lock:
        found = state.ext.get("profile")
        if found is None:
            found = state.ext["profile"] = ProfileState()
    return found


def count(state, name):
    with state.lock:
        state.stats[name] = state.stats.get(name, 0) + 1


def first_use(state, kind, owner, jti) -> bool:
    """Record a jti; False when it was seen before (a replay)."""
    ps = of(state)
    with state.lock:
        key = (kind, owner, jti)
        if key in ps.jtis:
            return False
        ps.jtis[key] = None
        _bound(ps.jtis, MAX_JTIS)
        return True


def current_nonce(state) -> str:
    ps = of(state)
    with state.lock:
        if not ps.nonces:
            ps.nonces.append(random_token("dpop-nonce-"))
        return ps.nonces[-1]


def add_nonce(state, nonce) -> None:
    """A nonce of the test's choosing (dpop_nonce_fault), accepted back."""
    ps = of(state)
    with state.lock:
        if nonce not in ps.nonces:
            ps.nonces.append(nonce)


def nonce_known(state, nonce) -> bool:
    ps = of(state)
    with state.lock:
        return isinstance(nonce, str) and nonce in ps.nonces


def push(state, pending, client_id, lifetime) -> str:
    uri = PAR_PREFIX + random_token()
    ps = of(state)
    with state.lock:
        ps.pushed[uri] = (pending, time.monotonic() + lifetime, client_id)
        _bound(ps.pushed, MAX_PUSHED)
    return uri


def take_pushed(state, uri, issuer):
    """(Pending, client_id) once per request_uri, None if unknown, used,
    expired or pushed to another issuer (scenario or listener)."""
    ps = of(state)
    with state.lock:
        entry = ps.pushed.pop(uri, None)
    if entry is None or time.monotonic() > entry[1] or entry[0].issuer != issuer:
        return None
    return entry[0], entry[2]


def put_token(state, token, info: TokenInfo):
    ps = of(state)
    with state.lock:
        ps.tokens[token] = info
        _bound(ps.tokens, MAX_TOKENS)


def get_token(state, token) -> Optional[TokenInfo]:
    ps = of(state)
    with state.lock:
        info = ps.tokens.get(token)
    return info if info is not None and time.monotonic() <= info.expires else None


def revoke_access(state) -> int:
    """Every access token of the run forgotten (DELETE /_access/<run>)."""
    ps = of(state)
    with state.lock:
        revoked, ps.tokens = len(ps.tokens), {}
    return revoked


def put_refresh_extra(state, token, extra: RefreshExtra):
    ps = of(state)
    with state.lock:
        ps.refresh[token] = extra


def get_refresh_extra(state, token) -> Optional[RefreshExtra]:
    ps = of(state)
    with state.lock:
        return ps.refresh.get(token)


def note(ex, key, value):
    """Add `key: value` to the hit's "decoded" object (replaced whole, so a
    concurrent GET /_hits never sees a dict change size under it)."""
    hit = getattr(ex, "record", None)
    if hit is None:
        return
    with ex.state.lock:
        decoded = dict(hit.get("decoded") or {})
        decoded[key] = value
        hit["decoded"] = decoded
