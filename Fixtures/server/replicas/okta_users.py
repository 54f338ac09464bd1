"""The Okta replica's directory: users, their enrolled factors and the
password and code checks (okta.md, "Users").

Every named user's password is `wonderland`; `alice` and the numbered batch
users (user<n> / pw-<n>) are the fixture's own (oauth_store.check_user).
A factor carries both of Okta's names for it: the Classic Factors object
(`factorType`, `provider`, a factor id) and the Identity Engine
authenticator (`key`, `type`, an authenticator id and an enrollment id), as
the Authentication API reference and okta-auth-js's IDX fixtures name them.
TOTP codes are checked by pyotp (RFC 6238), never by our own code.
"""
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Optional

from oauth_store import check_user

from . import replica_otp

PASSWORD = "wonderland"
# RFC 6238 Appendix B's SHA-1 key ("12345678901234567890"), as totp.py uses.
GOOGLE_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
# A second device's key: ASCII "abcdefghijklmnopqrst" (160 bits).
OKTA_VERIFY_SEED = "MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"
PASSWORD_AUTHENTICATOR = "autpwd0NnSoR7pKj0g4"   # the org's password authenticator
PASSWORD_ENROLLMENT = "lae8pwdEnr0LLm3nt0g4"


@dataclass(frozen=True)
class Factor:
    kind: str                 # totp | push | sms
    factor_id: str            # Classic: /api/v1/authn/factors/{factor_id}/verify
    provider: str             # Classic provider: GOOGLE | OKTA
    key: str                  # IDX authenticator key: google_otp | okta_verify | phone_number
    authenticator_id: str     # IDX authenticator id ("aut…")
    enrollment_id: str        # IDX enrollment id
    display: str              # IDX displayName
    seed: str = ""            # TOTP only: base32 seed
    profile: dict = field(default_factory=dict)

    @property
    def factor_type(self) -> str:
        return "token:software:totp" if self.kind == "totp" else self.kind

    @property
    def idx_type(self) -> str:
        return "phone" if self.kind == "sms" else "app"

    @property
    def methods(self) -> list:
        """IDX method types of the authenticator this enrollment belongs to."""
        if self.key == "google_otp":
            return ["otp"]
        if self.key == "phone_number":
            return ["sms", "voice"]
        return ["totp"] if self.kind == "totp" else ["push"]


GOOGLE_TOTP = Factor("totp", "uftgoogTotp0G0ogl0g4", "GOOGLE", "google_otp", "autgoogOtp0Auth00g4",
                     "paegoogEnr0llm3nt0g4", "Google Authenticator", GOOGLE_SEED)
VERIFY_TOTP = Factor("totp", "ostverifyTotp0kta0g4", "OKTA", "okta_verify", "autverify0ktaVrfy0g4",
                     "paeverifyEnr0llm30g4", "Okta Verify", OKTA_VERIFY_SEED)
VERIFY_PUSH = Factor("push", "opfverifyPush0kta0g4", "OKTA", "okta_verify", "autverify0ktaVrfy0g4",
                     "paepushEnr0llm3nt0g4", "Okta Verify",
                     profile={"deviceType": "SmartPhone_IPhone", "name": "Pat's iPhone",
                              "platform": "IOS", "version": "17.4"})
PHONE_SMS = Factor("sms", "smsphoneSms0kta00g4", "OKTA", "phone_number", "autphone0ktaPh0n30g4",
                   "paesmsEnr0llm3nt00g4", "Phone", profile={"phoneNumber": "+1 XXX-XXX-0142"})


@dataclass(frozen=True)
class User:
    login: str
    user_id: str
    first: str
    factors: tuple = ()
    locked: bool = False
    password_expired: bool = False


USERS = {u.login: u for u in (
    User("alice", "00ualice0000000000g4", "Alice"),
    User("carol", "00ucarol0000000000g4", "Carol", (GOOGLE_TOTP,)),
    User("dave", "00udave00000000000g4", "Dave", (GOOGLE_TOTP, VERIFY_TOTP)),
    User("pat", "00upat000000000000g4", "Pat", (VERIFY_PUSH,)),
    User("sam", "00usam000000000000g4", "Sam", (PHONE_SMS,)),
    User("lou", "00ulou000000000000g4", "Lou", locked=True),
    User("pete", "00upete00000000000g4", "Pete", password_expired=True),
)}


def find(login: Optional[str]) -> Optional[User]:
    """The user with this login (case-insensitive, as Okta logins are);
    numbered batch users exist when oauth_store knows them."""
    name = (login or "").strip().lower()
    if name in USERS:
        return USERS[name]
    if name.startswith("user") and check_user(name, "pw-" + name[4:]):
        return User(name, "00u" + hashlib.sha256(name.encode()).hexdigest()[:17], name.capitalize())
    return None


def password_ok(user: User, password: Optional[str]) -> bool:
    if user.login in USERS:
        return secrets.compare_digest(PASSWORD.encode(), (password or "").encode())
    return check_user(user.login, password)


def totp_ok(factor: Factor, code) -> bool:
    return replica_otp.verify(factor.seed, code)


def factor_by_id(user: User, factor_id: str) -> Optional[Factor]:
    return next((f for f in user.factors if f.factor_id == factor_id), None)


def profile(user: User) -> dict:
    """The user object embedded in Classic transactions."""
    return {"id": user.user_id, "passwordChanged": "2024-01-15T09:30:00.000Z",
            "profile": {"login": user.login, "firstName": user.first, "lastName": "Example",
                        "locale": "en_US", "timeZone": "America/Los_Angeles"}}
