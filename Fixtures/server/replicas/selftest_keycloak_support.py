"""A browser for the Keycloak replica's self-test: one cookie jar, the
authorization request, form submission, redirects up to the callback,
and the code's redemption with PKCE at the realm's token endpoint."""
import base64
import json
import os
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import selftest_keycloak_browser as kb
from selftest_support import VERIFIER, Client, auth_params, totp_now

RUN = f"kc-selftest-{os.getpid()}"
SEED_PHONE = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
SEED_TABLET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def config(base, run, conf):
    c = Client(base)
    r = c.request("POST", f"{base}/_config/{run}", body=json.dumps({"keycloak": conf}),
                  headers={"Content-Type": "application/json"})
    assert r.status == 200, r.text


def hits(base, run):
    return Client(base).request("GET", f"{base}/_hits/{run}").json()


def other_code(code):
    """A wrong one-time code (never the right one)."""
    return "000000" if code != "000000" else "111111"


class Browser:
    def __init__(self, base, scenario, run=RUN):
        self.base, self.run = base, run
        self.c = Client(base)
        self.iss = f"{base}/t/{run}/{scenario}/realms/demo"
        self.cb = self.iss + "/cb"

    def get(self, url):
        return self.c.request("GET", url)

    def post(self, url, data):
        return self.c.request("POST", url, form=data)

    def authorize(self, **extra):
        params = auth_params(self.iss, **extra)
        return self.get(self.iss + "/protocol/openid-connect/auth?" + urlencode(params))

    def follow(self, r):
        """Follow redirects inside the realm; stop at the callback."""
        while r.status in (301, 302, 303) and not r.location.startswith(self.cb):
            r = self.get(urljoin(r.url, r.location))
        return r

    def submit(self, r, form_id=None, having=None, **typed):
        f = kb.form(r.text, form_id=form_id, having=having)
        return self.follow(self.post(urljoin(r.url, f["action"]), kb.submission(f, **typed)))

    def login(self, username, password, **extra):
        return self.submit(self.authorize(**extra), "kc-form-login", username=username, password=password)

    def otp(self, r, seed, **typed):
        return self.submit(r, "kc-otp-login-form", otp=totp_now(seed), **typed)

    @staticmethod
    def answer(r) -> dict:
        assert r.status == 302, (r.status, r.text[:300])
        return dict(parse_qsl(urlsplit(r.location).query))

    def redeem(self, r):
        ans = self.answer(r)
        raw = base64.b64encode(b"demo-app:demo-secret").decode()
        form = {"grant_type": "authorization_code", "code": ans["code"], "redirect_uri": self.cb,
                "code_verifier": VERIFIER}
        return self.c.request("POST", self.iss + "/protocol/openid-connect/token", form=form,
                              headers={"Authorization": "Basic " + raw})

    def assert_logged_in(self, r):
        """A 302 to the callback with state, session_state, iss, code (in that
        order), and the code redeems with PKCE."""
        ans = self.answer(r)
        keys = [k for k, _ in parse_qsl(urlsplit(r.location).query)]
        assert keys == ["state", "session_state", "iss", "code"], keys
        assert ans["state"] == "st-1" and ans["iss"] == self.iss, ans
        t = self.redeem(r)
        assert t.status == 200 and "id_token" in t.json(), (t.status, t.text[:200])
        return t.json()
