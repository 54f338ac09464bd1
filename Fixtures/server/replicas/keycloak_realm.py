"""The realm the Keycloak replica serves: scenarios, settings, users.

Every scenario is one realm `demo` (issuer <base>/t/<run>/<scenario>/realms/demo)
whose browser flow and settings differ; per-run settings come from
POST /_config/<run> under the key "keycloak" (keycloak.md lists them). The
defaults are Keycloak's realm defaults, except where a scenario exists to
turn something on (brute-force detection, consent, Kerberos).

Users are the same in every scenario (keycloak.md, "Users"); each run gets
its own copy (keycloak_state.py), so required actions, registered passkeys
and lockouts of one run never leak into another.
"""
import hashlib
import uuid
from dataclasses import dataclass, field, replace

REALM = "demo"
THEMES = ("keycloak", "keycloak.v2", "keycloakify")


@dataclass(frozen=True)
class Scenario:
    theme: str = "keycloak"
    flow: str = "password"        # password | username-first | passwordless
    consent: bool = False
    kerberos: bool = False
    brute_force: bool = False


SPECS = {
    "keycloak": Scenario(),
    "keycloak-v2": Scenario(theme="keycloak.v2"),
    "keycloakify": Scenario(theme="keycloakify"),
    "keycloak-username-first": Scenario(flow="username-first"),
    "keycloak-consent": Scenario(consent=True),
    "keycloak-kerberos": Scenario(kerberos=True),
    "keycloak-passwordless": Scenario(flow="passwordless"),
    "keycloak-bruteforce": Scenario(brute_force=True),
}


@dataclass(frozen=True)
class Settings:
    """A scenario's settings after the run's config is applied."""
    scenario: Scenario
    failure_factor: int = 3                   # Keycloak's default is 30
    wait_increment_seconds: int = 60          # Keycloak's default
    transparent_user_message: bool = False    # Keycloak's default: hide the lockout
    otp_code_reusable: bool = False           # Keycloak's default since 21
    access_code_lifespan_login: int = 1800    # Keycloak's default (30 min)
    time_offset: int = 0                      # seconds added to the clock (Keycloak's testsuite has the same)
    session_state: bool = True                # session_state in the authorization response
    webauthn_user_verification: str = "not specified"
    passwordless_user_verification: str = "not specified"
    consent_checks_code: bool = False         # Keycloak < 22 read the consent form's `code`


def settings(ex) -> Settings:
    """The scenario's defaults, overridden by /_config/<run> {"keycloak": {...}}."""
    base = SPECS[ex.scenario]
    with ex.state.lock:
        conf = ex.state.config.get("keycloak")
    conf = conf if isinstance(conf, dict) else {}
    scenario = replace(base, **_typed(base, conf))
    if scenario.theme not in THEMES or scenario.flow not in FLOWS:
        scenario = base
    defaults = Settings(scenario=scenario)
    values = _typed(defaults, {k: v for k, v in conf.items() if k != "scenario"})
    if values.get("failure_factor", 1) < 1:
        values.pop("failure_factor")
    return replace(defaults, **values)


FLOWS = ("password", "username-first", "passwordless")


def _typed(defaults, conf) -> dict:
    """The keys of `conf` that `defaults` has, with a value of the default's type."""
    out = {}
    for key, value in conf.items():
        if key in defaults.__dataclass_fields__ and key != "scenario":
            want = type(getattr(defaults, key))
            if isinstance(value, want) and (want is not int or not isinstance(value, bool)):
                out[key] = value
    return out


# ---- users -------------------------------------------------------------------------

def user_id(username: str) -> str:
    """Keycloak's user ids are UUIDs; stable ones here, so tests can name them."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "keycloak-replica/" + username))


@dataclass(frozen=True)
class OtpSpec:
    label: str
    secret_base32: str


@dataclass(frozen=True)
class PasskeySpec:
    """A WebAuthn credential registered beforehand. The private key is derived
    from `seed` (keycloak_webauthn.fixed_private_key) so a test authenticator
    can sign for it; keycloak.md prints the JWK."""
    label: str
    seed: str
    passwordless: bool = False


@dataclass(frozen=True)
class UserSpec:
    username: str
    password: str
    first_name: str = ""
    last_name: str = ""
    email_verified: bool = True
    enabled: bool = True
    locked: bool = False          # temporarily disabled by brute-force detection
    otp: tuple = ()
    passkeys: tuple = ()
    required_actions: tuple = ()

    @property
    def id(self):
        return user_id(self.username)

    @property
    def email(self):
        return f"{self.username}@example.com"


# The fixture's RFC 6238 seed (totp.py) and a second one for a second device.
SEED_PHONE = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
SEED_TABLET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

USERS = {u.username: u for u in [
    UserSpec("alice", "wonderland", "Alice", "Liddell"),
    UserSpec("carol", "carol-pw", "Carol", "Otp", otp=(OtpSpec("Phone", SEED_PHONE),)),
    UserSpec("dave", "dave-pw", "Dave", "Twodevices",
             otp=(OtpSpec("Phone", SEED_PHONE), OtpSpec("Tablet", SEED_TABLET))),
    UserSpec("erin", "erin-pw", "Erin", "Key", passkeys=(PasskeySpec("Erin's key", "erin"),)),
    UserSpec("gina", "gina-pw", "Gina", "Both", otp=(OtpSpec("Phone", SEED_PHONE),),
             passkeys=(PasskeySpec("Gina's key", "gina"),)),
    UserSpec("henry", "henry-pw", "Henry", "Passkey",
             passkeys=(PasskeySpec("Henry's passkey", "henry", passwordless=True),)),
    UserSpec("terms", "terms-pw", "Terry", "Terms", required_actions=("TERMS_AND_CONDITIONS",)),
    UserSpec("newpass", "newpass-pw", "Nora", "Newpass", required_actions=("UPDATE_PASSWORD",)),
    UserSpec("profile", "profile-pw", required_actions=("UPDATE_PROFILE",)),
    UserSpec("verify", "verify-pw", "Vera", "Verify", email_verified=False,
             required_actions=("VERIFY_EMAIL",)),
    UserSpec("otpsetup", "otpsetup-pw", "Otto", "Setup", required_actions=("CONFIGURE_TOTP",)),
    UserSpec("keysetup", "keysetup-pw", "Kim", "Setup", required_actions=("webauthn-register",)),
    UserSpec("passkeysetup", "passkeysetup-pw", "Pat", "Setup",
             required_actions=("webauthn-register-passwordless",)),
    UserSpec("locked", "locked-pw", "Lock", "Ed", locked=True),
    UserSpec("disabled", "disabled-pw", "Dis", "Abled", enabled=False),
]}

# Keycloak's default priority of required actions (the admin console's order).
ACTION_ORDER = ("CONFIGURE_TOTP", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "UPDATE_PROFILE",
                "VERIFY_EMAIL", "webauthn-register", "webauthn-register-passwordless")


def execution_id(scenario: str, provider: str) -> str:
    """Executions of a flow are UUIDs in Keycloak; stable per scenario here."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"keycloak-replica/{scenario}/{provider}"))


def credential_id(username: str, label: str) -> str:
    """Credential ids (OTP devices) are UUIDs too."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"keycloak-replica/{username}/credential/{label}"))


def passkey_credential_id(seed: str) -> bytes:
    return hashlib.sha256(b"keycloak-replica-credential-" + seed.encode()).digest()


@dataclass
class Client:
    """What the login pages show of the OAuth client (client.name, attributes)."""
    client_id: str
    name: str = ""
    attributes: dict = field(default_factory=dict)
