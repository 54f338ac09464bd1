"""Server-side state of the Keycloak replica, one realm per run and scenario.

What Keycloak keeps in Infinispan, kept here in RunState.ext:
- root authentication sessions (cookie AUTH_SESSION_ID), each with one
  authentication session per browser tab (tab_id): the client's request,
  the flow position, the current execution, the active session_code
  (single use: ClientSessionCode), auth notes;
- user sessions (cookie KEYCLOAK_IDENTITY) for SSO;
- the users with their credentials, required actions and brute-force
  counters; consents granted.
The KC_RESTART cookie is a signed JWT of the client's request, so a login
whose authentication session is gone can start again (RestartLoginCookie).
"""
import base64
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import jwt_util
from oauth_store import Pending

from . import keycloak_realm as realm


def now(settings) -> float:
    return time.time() + settings.time_offset


@dataclass
class OtpCredential:
    id: str
    label: str
    secret: bytes          # raw secret bytes (Keycloak stores the secret, shows it base32)
    created: float = 0.0


@dataclass
class WebAuthnCredential:
    credential_id: bytes
    public_key: bytes      # COSE_Key
    sign_count: int
    label: str
    passwordless: bool
    created: float
    transports: tuple = ()


@dataclass
class UserRecord:
    username: str
    id: str
    password: str
    email: str
    first_name: str
    last_name: str
    email_verified: bool
    enabled: bool
    otp: list
    passkeys: list
    required_actions: list
    failures: int = 0
    disabled_until: float = 0.0
    used_otp: set = field(default_factory=set)

    def passkeys_of(self, passwordless: bool):
        return [c for c in self.passkeys if c.passwordless == passwordless]


@dataclass
class AuthSession:
    """One tab's login (AuthenticationSessionModel)."""
    tab_id: str
    client_id: str
    pending: Pending
    created: float
    action: str = "AUTHENTICATE"       # AUTHENTICATE | REQUIRED_ACTIONS
    flow_path: str = "authenticate"    # authenticate | required-action
    execution: Optional[str] = None    # current execution id, or the required action's name
    active_code: Optional[str] = None
    step: int = 0
    chosen: dict = field(default_factory=dict)     # step -> execution chosen ("try another way")
    user: Optional[str] = None
    notes: dict = field(default_factory=dict)
    timestamp: float = 0.0

    def code(self) -> str:
        """ClientSessionCode.getOrGenerateCode: the active code, or a new one."""
        if self.active_code is None:
            self.active_code = secrets.token_urlsafe(32)
        return self.active_code


@dataclass
class RootSession:
    id: str
    timestamp: float
    tabs: dict = field(default_factory=dict)


class RealmRun:
    """The realm of one scenario in one run. `lock` is held for a whole request."""

    def __init__(self, scenario: str, settings):
        self.lock = threading.RLock()
        self.scenario = scenario
        self.restart_key = secrets.token_bytes(32)
        self.roots: dict = {}
        self.user_sessions: dict = {}      # sid -> username
        self.consents: dict = {}           # (username, client_id) -> set of scopes
        self.users = {name: _record(spec, settings) for name, spec in realm.USERS.items()}

    # ---- users -----------------------------------------------------------------

    def find_user(self, name: str) -> Optional[UserRecord]:
        """By username or e-mail, case-insensitive (KeycloakModelUtils.findUserByNameOrEmail)."""
        key = (name or "").strip().lower()
        for user in self.users.values():
            if user.username == key or user.email == key:
                return user
        return None

    def user_by_id(self, uid: str) -> Optional[UserRecord]:
        return next((u for u in self.users.values() if u.id == uid), None)

    # ---- sessions ---------------------------------------------------------------

    def root(self, sid: Optional[str], settings) -> Optional[RootSession]:
        """A live root session; one idle longer than the login lifespan is gone,
        as Infinispan expires it."""
        found = self.roots.get(sid or "")
        if found and now(settings) - found.timestamp > settings.access_code_lifespan_login:
            del self.roots[found.id]
            return None
        return found

    def new_root(self, settings) -> RootSession:
        root = RootSession(secrets.token_urlsafe(24), now(settings))
        self.roots[root.id] = root
        return root

    def new_auth_session(self, root, pending, settings) -> AuthSession:
        tab = AuthSession(tab_id=secrets.token_urlsafe(8)[:11], client_id=pending.client_id,
                          pending=pending, created=now(settings), timestamp=now(settings))
        root.tabs[tab.tab_id] = tab
        root.timestamp = now(settings)
        return tab

    # ---- KC_RESTART ---------------------------------------------------------------

    def restart_cookie(self, tab: AuthSession) -> str:
        """A JWT of the client's request (cid, pr, ru, notes), HMAC-signed."""
        p = tab.pending
        notes = {k: v for k, v in {
            "scope": p.scope, "state": p.state, "nonce": p.nonce, "response_type": "code",
            "response_mode": p.response_mode, "code_challenge": p.challenge,
            "code_challenge_method": p.challenge_method, "iss": p.issuer}.items() if v is not None}
        return jwt_util.encode({"cid": p.client_id, "pr": "openid-connect", "ru": p.redirect_uri, "notes": notes},
                               self.restart_key)

    def read_restart_cookie(self, value: str) -> Optional[Pending]:
        claims = jwt_util.decode_verified(value, self.restart_key)
        try:
            notes = claims["notes"]
            return Pending(client_id=claims["cid"], redirect_uri=claims["ru"], state=notes.get("state"),
                           challenge=notes.get("code_challenge"),
                           challenge_method=notes.get("code_challenge_method"),
                           nonce=notes.get("nonce"), scope=notes.get("scope", ""),
                           response_mode=notes.get("response_mode", "query"), issuer=notes.get("iss", ""))
        except (KeyError, TypeError, AttributeError):
            return None


def _record(spec, settings) -> UserRecord:
    from . import keycloak_webauthn  # noqa: PLC0415 (needs cryptography; imported when a realm is made)
    created = now(settings)
    otp = [OtpCredential(realm.credential_id(spec.username, o.label), o.label,
                         base64.b32decode(o.secret_base32), created) for o in spec.otp]
    keys = [k for k in (keycloak_webauthn.fixed_credential(p, created) for p in spec.passkeys) if k]
    user = UserRecord(spec.username, spec.id, spec.password, spec.email, spec.first_name, spec.last_name,
                      spec.email_verified, spec.enabled, otp, keys, list(spec.required_actions))
    if spec.locked:
        user.failures, user.disabled_until = settings.failure_factor, float("inf")
    return user


def realm_run(ex, settings) -> RealmRun:
    """This run's realm of this scenario, created on first use."""
    with ex.state.lock:
        runs = ex.state.ext.setdefault("keycloak", {})
        found = runs.get(ex.scenario)
        if found is None:
            found = runs[ex.scenario] = RealmRun(ex.scenario, settings)
    return found
