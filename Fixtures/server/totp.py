"""A second factor after the password: a TOTP code (RFC 6238), checked by
pyotp, a real verifier, not by code of ours (so the client's own TOTP code is
tested against an independent implementation).

pyotp is not in the standard library: it is imported lazily and comes with
the venv of Fixtures/django/requirements.txt. Without it the totp scenarios
answer 501 "pyotp not installed" (everything else runs on plain python3).

totp              SHA1, 6 digits, 30 s; field `otp` with autocomplete="one-time-code"
totp-sha256-8     SHA256, 8 digits, 30 s; field `otp` with autocomplete="one-time-code"
totp-field-named  SHA1, 6 digits, 30 s; field `verification`, no autocomplete
A code of the current step or the one before or after is accepted (RFC 6238
§5.2 allows one step of drift). Codes may be reused (no replay store), so
several flows within one period all pass.
"""
import hashlib
from dataclasses import dataclass
from html import escape

import pages
import txn_login


@dataclass(frozen=True)
class Spec:
    seed: str          # base32 (RFC 4648 §6), as users paste it
    digest: str
    digits: int
    field: str
    autocomplete: bool
    period: int = 30


# The seeds are RFC 6238 Appendix B's keys, so a client's codes can be
# checked against the RFC's table too. pyotp (>= 2.10) refuses seeds under
# 112 bits (NIST SP 800-63B), which rules out the 80-bit demo seeds.
SHA1_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"                            # "12345678901234567890"
SHA256_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"      # "1234567890" * 3 + "12"
SPECS = {
    "totp": Spec(SHA1_SEED, "sha1", 6, "otp", True),
    "totp-sha256-8": Spec(SHA256_SEED, "sha256", 8, "otp", True),
    "totp-field-named": Spec(SHA1_SEED, "sha1", 6, "verification", False),
}
WRONG_CODE = "Invalid authenticator code."


def _pyotp():
    try:
        import pyotp  # noqa: PLC0415 (lazy: optional dependency)
    except ImportError:
        return None
    return pyotp


def _missing(ex):
    ex.send(501, "pyotp not installed\n")


def authorize(ex, pending):
    if _pyotp() is None:
        return _missing(ex)
    txn_login.start(ex, pending)


def _otp_page(ex, txn, error=""):
    spec = SPECS[ex.scenario]
    auto = ' autocomplete="one-time-code" inputmode="numeric"' if spec.autocomplete else ""
    alert = f'<div class="alert alert-error" role="alert">{escape(error)}</div>\n' if error else ""
    return pages.page("Two-factor authentication", f"""{alert}<p>Enter the code from your authenticator app.</p>
<form method="post" action="otp">
  <input type="hidden" name="txn" value="{escape(txn)}">
  <label>Code <input type="text" name="{spec.field}"{auto}></label>
  <button type="submit" name="action" value="verify">Verify</button>
</form>""")


def _password_ok(ex, pending, user):
    """The password was right: the same txn now waits for the code."""
    pending.data["user"] = user
    ex.html(200, _otp_page(ex, ex.state.put_txn(pending)))


def login(ex):
    txn_login.login(ex, on_success=_password_ok)


def otp(ex):
    pyotp = _pyotp()
    if pyotp is None:
        return _missing(ex)
    txn = ex.params().get("txn")
    pending = ex.state.get_txn(txn)
    if pending is None or "user" not in pending.data:
        return ex.html(400, pages.message_page("Error", "Unknown or expired transaction."))
    if ex.method != "POST":
        return ex.html(200, _otp_page(ex, txn))
    spec = SPECS[ex.scenario]
    checker = pyotp.TOTP(spec.seed, digits=spec.digits, digest=getattr(hashlib, spec.digest),
                         interval=spec.period)
    if not checker.verify(ex.form.get(spec.field, ""), valid_window=1):
        return ex.html(200, _otp_page(ex, txn, WRONG_CODE))
    ex.state.get_txn(txn, pop=True)
    txn_login.finish_as(ex, pending, pending.data["user"])


AUTHORIZE = {name: authorize for name in SPECS}
PAGES = {**{(name, "login"): login for name in SPECS}, **{(name, "otp"): otp for name in SPECS}}
