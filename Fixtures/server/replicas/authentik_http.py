"""One request to the Authentik replica: settings, state, session, cookies,
CSRF, answers.

authentik's web path is the scenario root here (/t/<run>/<scenario>/), so
its cookies use that Path. Cookie names and rules from authentik/root/
settings.py and its middleware:
- `authentik_session`: the Django session, HttpOnly, no expiry;
  SameSite=None; Secure over https, SameSite=Lax over plain http (authentik's
  SessionMiddleware decides by the connection);
- `authentik_csrf`: Django's CSRF cookie (CSRF_COOKIE_NAME), readable by
  scripts, a year, SameSite=Lax; set by the flow interface page
  (ensure_csrf_cookie) and renewed at login (Django's rotate_token).
The flow executor is a DRF view: CSRF is enforced by SessionAuthentication,
that is only for a session that is logged in, with the token in header
X-authentik-CSRF (CSRF_HEADER_NAME); failures are 403
{"detail": "CSRF Failed: <Django's reason>"}.
"""
import json
import re
import secrets
import string
from urllib.parse import urlsplit

from . import authentik_realm as realm
from . import authentik_state as state

_HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")
CSRF_CHARS = string.ascii_letters + string.digits


def _unmask(token: str) -> str:
    """Django's _unmask_cipher_token: a 64-character masked token to its secret."""
    mask, cipher = token[:32], token[32:]
    pairs = zip((CSRF_CHARS.index(x) for x in cipher), (CSRF_CHARS.index(y) for y in mask))
    return "".join(CSRF_CHARS[x - y] for x, y in pairs)


class Ctx:
    def __init__(self, ex):
        self.ex = ex
        self.settings = realm.settings(ex)
        self.rr = state.realm_run(ex)
        host = ex.headers.get("host", "")
        scheme = urlsplit(ex.base).scheme
        self.base = f"{scheme}://{host}" if _HOST.match(host) else ex.base
        self.root = f"/t/{ex.run}/{ex.scenario}"
        self.issuer = f"{self.base}{self.root}/application/o/{realm.APP_SLUG}/"
        ex.issuer = self.issuer
        self.headers = []
        self.session = None
        self._cookie_sid = None

    @property
    def secure(self) -> bool:
        return self.base.startswith("https:")

    @property
    def rp_id(self) -> str:
        return urlsplit(self.base).hostname or ""

    # ---- session ----------------------------------------------------------------

    def load_session(self, create=True):
        found = self.rr.session_from_cookie(self.ex.cookies.get("authentik_session", ""))
        self._cookie_sid = found.sid if found else None
        if found is None and create:
            found = self.rr.new_session()
        self.session = found
        return found

    def _session_headers(self):
        if self.session is not None and self.session.sid != self._cookie_sid:
            same_site = "SameSite=None; Secure" if self.secure else "SameSite=Lax"
            self.headers.append(("Set-Cookie", f"authentik_session={self.rr.session_cookie(self.session)}; "
                                               f"HttpOnly; Path={self.root}/; {same_site}"))
            self._cookie_sid = self.session.sid

    def set_csrf_cookie(self, value=None):
        value = value or self.ex.cookies.get("authentik_csrf") or "".join(
            secrets.choice(CSRF_CHARS) for _ in range(32))
        self.headers.append(("Set-Cookie", f"authentik_csrf={value}; Max-Age=31449600; Path={self.root}/; "
                                           "SameSite=Lax"))
        return value

    def csrf_failure(self):
        """Django's CsrfViewMiddleware checks as DRF runs them; None when it passes."""
        origin = self.ex.headers.get("origin")
        if origin is not None and origin != self.base:
            return f"Origin checking failed - {origin} does not match any trusted origins."
        secret = self.ex.cookies.get("authentik_csrf")
        if not secret:
            return "CSRF cookie not set."
        token = self.ex.headers.get("x-authentik-csrf", "")
        if not token:
            return "CSRF token missing."
        if len(token) not in (32, 64):
            return "CSRF token has incorrect length."
        if any(c not in CSRF_CHARS for c in token):
            return "CSRF token has invalid characters."
        if len(token) == 64:
            token = _unmask(token)
        return None if secrets.compare_digest(token, secret) else "CSRF token incorrect."

    # ---- answers ----------------------------------------------------------------

    def json(self, status, obj):
        self._session_headers()
        self.ex.send(status, json.dumps(obj, separators=(",", ":")), "application/json", self.headers)

    def html(self, status, text):
        self._session_headers()
        self.ex.html(status, text, self.headers)

    def redirect(self, location):
        self._session_headers()
        self.ex.redirect(302, location, self.headers)
