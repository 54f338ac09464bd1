"""Server-side state of the Authentik replica, per run and scenario.

What authentik keeps in its database and session store: Django sessions
(cookie `authentik_session`, a signed JWT naming the session id, as
authentik.core.sessions writes it) holding the flow plan and the stages'
session keys; users with their devices (TOTP with django-otp's last_t, so a
code is not taken twice; WebAuthn with its signCount; SMS; Duo); the
reputation score per identifier (each failed login −1); consents given.
"""
import hashlib
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import jwt_util

from . import authentik_realm as realm


@dataclass
class Device:
    pk: int
    kind: str
    name: str
    user: str
    secret: str = ""
    credential_id: str = ""        # WebAuthn: base64url, as authentik stores it
    public_key: bytes = b""
    sign_count: int = 0
    last_t: int = -1               # TOTP: the last time step accepted
    token: Optional[str] = None    # SMS: the code sent
    last_used: Optional[str] = None


@dataclass
class User:
    pk: int
    username: str
    password: str
    name: str
    email: str
    locked: bool = False
    failed_attempts: int = 0


@dataclass
class Session:
    sid: str
    user: Optional[str] = None     # the authenticated user
    data: dict = field(default_factory=dict)


class RealmRun:
    def __init__(self):
        self.lock = threading.RLock()
        self.key = secrets.token_bytes(32)
        self.sessions: dict = {}
        self.reputation: dict = {}      # identifier -> score
        self.consents: dict = {}        # (username, app) -> set of permission ids
        self.users = {}
        self.devices = []
        for spec in realm.USERS.values():
            self.users[spec.username] = User(realm.user_pk(spec.username), spec.username, spec.password,
                                             spec.name, spec.email, spec.locked)
            for d in spec.devices:
                self.devices.append(_device(len(self.devices) + 1, spec.username, d))

    # ---- users and devices ---------------------------------------------------

    def find_user(self, uid: str) -> Optional[User]:
        """user_fields email and username, case-insensitive matching (the defaults)."""
        key = (uid or "").strip().lower()
        return next((u for u in self.users.values() if key in (u.username.lower(), u.email.lower())), None)

    def devices_of(self, username: str, kind=None) -> list:
        return [d for d in self.devices if d.user == username and (kind is None or d.kind == kind)]

    def failed_login(self, identifier: str):
        """authentik.policies.reputation: a failed login lowers the identifier's score."""
        self.reputation[identifier] = self.reputation.get(identifier, 0) - 1

    # ---- sessions ---------------------------------------------------------------

    def session_cookie(self, session: Session) -> str:
        """A JWT as authentik's session cookie: sid, iss, sub, authenticated, acr."""
        sub = hashlib.sha256(session.user.encode()).hexdigest() if session.user else "anonymous"
        return jwt_util.encode({"sid": session.sid, "iss": "authentik", "sub": sub,
                                "authenticated": session.user is not None,
                                "acr": "goauthentik.io/core/default"}, self.key)

    def session_from_cookie(self, value: str) -> Optional[Session]:
        claims = jwt_util.decode_verified(value, self.key)
        return self.sessions.get(claims.get("sid")) if claims else None

    def new_session(self) -> Session:
        session = Session(secrets.token_hex(16))
        self.sessions[session.sid] = session
        return session

    def cycle(self, session: Session) -> Session:
        """Django's login(): a new session key, the data kept."""
        self.sessions.pop(session.sid, None)
        session.sid = secrets.token_hex(16)
        self.sessions[session.sid] = session
        return session


def _device(pk, username, spec) -> Device:
    device = Device(pk, spec.kind, spec.name, username, spec.secret)
    if spec.kind == "webauthn":
        from . import authentik_webauthn  # noqa: PLC0415 (needs cryptography)
        device.credential_id, device.public_key = authentik_webauthn.fixed_key(spec.secret)
    return device


def realm_run(ex) -> RealmRun:
    with ex.state.lock:
        runs = ex.state.ext.setdefault("authentik", {})
        found = runs.get(ex.scenario)
        if found is None:
            found = runs[ex.scenario] = RealmRun()
    return found


def now() -> float:
    return time.time()
