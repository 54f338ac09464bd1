"""Server-side state of the fixture: clients, users, codes, sessions, hits.

Everything is partitioned by <run> (the first path segment after /t/) so that
tests running in parallel against one server never see each other's state.
"""
import base64
import binascii
import hashlib
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Optional
from urllib.parse import unquote_plus

# client_id -> secret (None = public client, PKCE required).
CLIENTS = {
    "demo-app": "demo-secret",
    "weird:app id": "p@ss:w/rd+ =%&",  # exercises RFC 6749 §2.3.1 encoding
    "public-app": None,
}
USERS = {"alice": "wonderland"}
# Batch users (the `users` scenario, `--users` runs): user1..user100000 with
# password pw-<n>, computed rather than stored.
_NUMBERED_USER = re.compile(r"^user([1-9][0-9]{0,5})$")
NUMBERED_USERS = 100000

CODE_LIFETIME = 60.0  # seconds
_VERIFIER_RE = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")  # RFC 7636 §4.1


def random_token(prefix: str = "") -> str:
    return prefix + secrets.token_urlsafe(16)


def check_user(username: Optional[str], password: Optional[str]) -> bool:
    expected = USERS.get(username or "")
    match = _NUMBERED_USER.match(username or "")
    if match and int(match.group(1)) <= NUMBERED_USERS:
        expected = f"pw-{match.group(1)}"
    return expected is not None and secrets.compare_digest(
        expected.encode(), (password or "").encode())


@dataclass
class Pending:
    """A validated authorization request waiting for a code (or an error)."""
    client_id: str
    redirect_uri: str
    state: Optional[str]
    challenge: Optional[str]
    challenge_method: Optional[str]
    nonce: Optional[str]
    scope: str
    response_mode: str
    issuer: str = ""               # the issuer of the listener that validated it
    hop_method: str = ""           # method and body of the request that got a
    hop_body: bytes = b""          # 307 (chain scenarios check they are kept)
    data: dict = field(default_factory=dict)  # per-flow scratch (totp: the user)
    txn: str = field(default_factory=lambda: random_token("txn-"))


@dataclass
class Grant:
    """An issued authorization code."""
    pending: Pending
    issuer: str
    user: str
    expires: float
    used: bool = False


@dataclass
class Session:
    """A browser-like login session (cookie sid / session)."""
    scenario: str
    csrf: str = ""
    user: Optional[str] = None
    pending: Optional[Pending] = None
    data: dict = field(default_factory=dict)


@dataclass
class RefreshGrant:
    """A refresh token (RFC 6749 §6): who it was issued to, for what."""
    client_id: str
    issuer: str
    user: str
    scope: str


class RunState:
    """All state of one test run. Every access goes through `lock`."""

    def __init__(self):
        self.lock = threading.Lock()
        self.hits: list = []
        self.codes: dict = {}      # code -> Grant
        self.sessions: dict = {}   # cookie value -> Session
        self.txns: dict = {}       # txn id -> Pending (login-direct, chains)
        self.refresh: dict = {}    # refresh token -> RefreshGrant
        self.config: dict = {}     # POST /_config/<run> (e.g. {"other": origin})
        self.ext: dict = {}        # state of newer modules by name (profile_state.py)
        self.stats = {"requests": 0, "hits_dropped": 0, "codes_issued": 0,
                      "codes_redeemed": 0, "refreshes": 0,
                      # signing scenarios (signed_scenarios.py)
                      "jwks_fetches": 0, "par_requests": 0, "userinfo_requests": 0,
                      "resource_requests": 0}

    def record(self, hit: dict, max_hits: int) -> None:
        """Keep a hit unless the run already holds max_hits (batch runs of
        100,000 flows would otherwise hold gigabytes); count it either way."""
        with self.lock:
            self.stats["requests"] += 1
            if len(self.hits) < max_hits:
                self.hits.append(hit)
            else:
                self.stats["hits_dropped"] += 1

    def count(self, name: str) -> None:
        with self.lock:
            self.stats[name] += 1

    def issue_code(self, pending: Pending, issuer: str, user: str) -> str:
        code = random_token("code-")
        with self.lock:
            self.codes[code] = Grant(pending, issuer, user, time.monotonic() + CODE_LIFETIME)
            self.stats["codes_issued"] += 1
        return code

    def take_code(self, code: str, issuer: str) -> Optional[Grant]:
        """Consume a code: returns its Grant once, then None forever after."""
        with self.lock:
            grant = self.codes.get(code)
            if grant is None or grant.used or grant.issuer != issuer:
                return None
            del self.codes[code]  # presented once: gone, so memory stays flat in batch runs
            grant.used = True
        return grant if time.monotonic() <= grant.expires else None

    def put_refresh(self, grant: RefreshGrant) -> str:
        token = random_token("rt-")
        with self.lock:
            self.refresh[token] = grant
        return token

    def get_refresh(self, token: str, pop: bool = False) -> Optional[RefreshGrant]:
        with self.lock:
            return self.refresh.pop(token, None) if pop else self.refresh.get(token)

    def revoke_refresh(self) -> int:
        with self.lock:
            revoked, self.refresh = len(self.refresh), {}
        return revoked

    def new_session(self, scenario: str) -> tuple:
        sid = random_token()
        session = Session(scenario=scenario, csrf=random_token())
        with self.lock:
            self.sessions[sid] = session
        return sid, session

    def session(self, sid: Optional[str], scenario: str) -> Optional[Session]:
        with self.lock:
            found = self.sessions.get(sid or "")
        return found if found is not None and found.scenario == scenario else None

    def put_txn(self, pending: Pending) -> str:
        with self.lock:
            self.txns[pending.txn] = pending
        return pending.txn

    def get_txn(self, txn: Optional[str], pop: bool = False) -> Optional[Pending]:
        with self.lock:
            return self.txns.pop(txn or "", None) if pop else self.txns.get(txn or "")


class Store:
    """run name -> RunState, created on first use."""

    def __init__(self):
        self._lock = threading.Lock()
        self._runs: dict = {}
        self.max_hits = 20000  # --max-hits

    def run(self, name: str) -> RunState:
        with self._lock:
            return self._runs.setdefault(name, RunState())


STORE = Store()


def parse_basic(header: str) -> Optional[tuple]:
    """Decode `Authorization: Basic ...` per RFC 6749 §2.3.1.

    base64-decode, split at the FIRST ':', then form-url-decode each half
    ('+' is a space, %XX escapes). Returns (client_id, secret) or None.
    """
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if ":" not in decoded:
        return None
    client_id, _, secret = decoded.partition(":")
    return unquote_plus(client_id), unquote_plus(secret)


def verify_pkce(pending: Pending, verifier: Optional[str]) -> bool:
    """RFC 7636 §4.6. With no challenge, a verifier must not be sent either."""
    if pending.challenge is None:
        return verifier is None
    if verifier is None or not _VERIFIER_RE.match(verifier):
        return False
    if pending.challenge_method == "S256":
        digest = hashlib.sha256(verifier.encode("ascii")).digest()
        computed = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
    else:
        computed = verifier
    return secrets.compare_digest(computed, pending.challenge)
