"""What the Authentik replica serves: scenarios, settings, users, devices.

The flows are authentik's default blueprints
(blueprints/default/flow-default-authentication-flow.yaml and the provider
authorization flows): identification (user fields email and username) ·
password (skipped when a passkey already authenticated the user) ·
authenticator validation (not configured → skip) · user login; the OAuth2
provider's authorization flow is implicit consent, or explicit consent in
`authentik-consent`. Per-run settings: POST /_config/<run> with
{"authentik": {...}} (authentik.md).
"""
import hashlib
from dataclasses import dataclass, replace

APP_SLUG = "demo"
APP_NAME = "Demo"
AUTH_FLOW = "default-authentication-flow"
IMPLICIT_FLOW = "default-provider-authorization-implicit-consent"
EXPLICIT_FLOW = "default-provider-authorization-explicit-consent"


@dataclass(frozen=True)
class Settings:
    consent: bool = False                 # explicit-consent authorization flow
    password_in_identification: bool = False   # identification stage with its password stage set
    passkey_login: bool = False           # identification stage with a WebAuthn stage (passkey_challenge)
    pretend_user_exists: bool = True      # authentik's default since 2023.10
    failed_attempts_before_cancel: int = 5
    failed_attempts_before_lockout: int = 0    # 0: off
    show_lockout_message: bool = False
    remember_me_offset: int = 0           # > 0: the user-login stage asks remember_me
    consent_mode: str = "always_require"  # always_require | permanent
    webauthn_user_verification: str = "preferred"
    legacy_type_field: bool = False       # challenges carry "type" (authentik before 2023.x)


SCENARIO_SETTINGS = {
    "authentik": {},
    "authentik-consent": {"consent": True},
    "authentik-merged": {"password_in_identification": True},
    "authentik-passkey": {"passkey_login": True},
}


def settings(ex) -> Settings:
    base = replace(Settings(), **SCENARIO_SETTINGS[ex.scenario])
    with ex.state.lock:
        conf = ex.state.config.get("authentik")
    conf = conf if isinstance(conf, dict) else {}
    values = {}
    for key, value in conf.items():
        if key in Settings.__dataclass_fields__:
            want = type(getattr(base, key))
            if isinstance(value, want) and (want is not int or not isinstance(value, bool)):
                values[key] = value
    return replace(base, **values)


@dataclass(frozen=True)
class DeviceSpec:
    kind: str            # totp | webauthn | sms | duo
    name: str
    secret: str = ""     # totp: base32; webauthn: the key's seed; sms: the phone number


@dataclass(frozen=True)
class UserSpec:
    username: str
    password: str
    name: str
    devices: tuple = ()
    locked: bool = False      # password login locked (failed_attempts_before_lockout reached)

    @property
    def email(self):
        return f"{self.username}@example.com"


SEED_TOTP = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"   # the fixture's RFC 6238 seed (totp.py)

USERS = {u.username: u for u in [
    UserSpec("alice", "wonderland", "Alice Liddell"),
    UserSpec("carol", "carol-pw", "Carol Otp", (DeviceSpec("totp", "Phone", SEED_TOTP),)),
    UserSpec("erin", "erin-pw", "Erin Key", (DeviceSpec("webauthn", "Erin's key", "erin"),)),
    UserSpec("gina", "gina-pw", "Gina Both", (DeviceSpec("totp", "Phone", SEED_TOTP),
                                              DeviceSpec("webauthn", "Gina's key", "gina"))),
    UserSpec("henry", "henry-pw", "Henry Passkey", (DeviceSpec("webauthn", "Henry's passkey", "henry"),)),
    UserSpec("sam", "sam-pw", "Sam Sms", (DeviceSpec("sms", "Phone", "+15555550100"),)),
    UserSpec("dan", "dan-pw", "Dan Duo", (DeviceSpec("duo", "Duo"),)),
    UserSpec("locked", "locked-pw", "Lock Ed", locked=True),
]}


def user_pk(username: str) -> int:
    return list(USERS).index(username) + 1


def webauthn_credential_id(seed: str) -> bytes:
    return hashlib.sha256(b"authentik-replica-credential-" + seed.encode()).digest()


WEBAUTHN_KEY_PREFIX = b"authentik-replica-webauthn-"
