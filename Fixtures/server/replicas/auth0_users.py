"""The Auth0 replica's database connection (`Username-Password-Authentication`)
and its users' Guardian factors (auth0.md, "Users").

Every named user's password is `wonderland`; `alice` and the numbered batch
users (user<n> / pw-<n>) are the fixture's own (oauth_store.check_user).
TOTP codes are checked by pyotp (RFC 6238), never by our own code.
"""
import hashlib
import secrets
from dataclasses import dataclass
from typing import Optional

from oauth_store import check_user

from . import replica_otp

PASSWORD = "wonderland"
CONNECTION = "Username-Password-Authentication"
# RFC 6238 Appendix B's SHA-1 key ("12345678901234567890"), as totp.py uses.
OTP_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


@dataclass(frozen=True)
class User:
    name: str
    factor: str = ""          # "" | otp | push | sms (Guardian)
    blocked: bool = False     # blocked by an administrator

    @property
    def user_id(self) -> str:
        return "auth0|" + hashlib.sha256(self.name.encode()).hexdigest()[:24]


USERS = {u.name: u for u in (
    User("alice"), User("carol", "otp"), User("pat", "push"), User("sam", "sms"),
    User("lou", blocked=True),
)}


def find(name) -> Optional[User]:
    """Auth0 compares usernames case-insensitively."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in USERS:
        return USERS[key]
    if key.startswith("user") and check_user(key, "pw-" + key[4:]):
        return User(key)
    return None


def password_ok(user: User, password) -> bool:
    if not isinstance(password, str):
        return False
    if user.name in USERS:
        return secrets.compare_digest(PASSWORD.encode(), password.encode())
    return check_user(user.name, password)


def otp_ok(code) -> bool:
    return replica_otp.verify(OTP_SEED, code)
