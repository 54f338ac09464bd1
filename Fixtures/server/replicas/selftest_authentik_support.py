"""authentik's browser side for selftest_authentik.py: what its web
interface (ak-flow-executor) does. It follows the authorize request's
redirects to the flow interface page, then talks to the executor API:
GET for a challenge, POST the answer as JSON with the header
X-authentik-CSRF = the authentik_csrf cookie (the web client's CSRF
middleware), follows the 302 back to GET, and on xak-flow-redirect goes to
`to` like window.location.assign. Standard library only."""
import base64
import json
import os
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit

from selftest_support import VERIFIER, Client, auth_params

RUN = f"ak-selftest-{os.getpid()}"
SEED_TOTP = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def config(base, run, conf):
    r = Client(base).request("POST", f"{base}/_config/{run}", body=json.dumps({"authentik": conf}),
                             headers={"Content-Type": "application/json"})
    assert r.status == 200, r.text


def hits(base, run):
    return Client(base).request("GET", f"{base}/_hits/{run}").json()


class Browser:
    def __init__(self, base, scenario, run=RUN, csrf=True):
        self.base, self.run, self.csrf = base, run, csrf
        self.c = Client(base)
        self.root = f"{base}/t/{run}/{scenario}"
        self.iss = f"{self.root}/application/o/demo/"
        self.cb = self.root + "/cb"
        self.executor_url = None

    def get(self, url, **headers):
        return self.c.request("GET", urljoin(self.root + "/", url), headers=headers)

    def authorize(self, **extra):
        params = auth_params(self.root, **extra)
        return self.start(self.root + "/application/o/authorize/?" + urlencode(params))

    def start(self, url):
        """Follow redirects to a flow interface page, then GET its first challenge."""
        r = self.get(url)
        while r.status == 302 and not r.location.startswith(self.cb):
            r = self.get(urljoin(r.url, r.location))
        if r.status != 200 or "<ak-flow-executor" not in r.text:
            return r
        page = urlsplit(r.url)
        slug = page.path.rstrip("/").rsplit("/", 1)[-1]
        self.executor_url = (f"{self.root}/api/v3/flows/executor/{slug}/?query=" + quote(page.query, safe=""))
        return self.challenge(self.fetch(self.get(self.executor_url)))

    def fetch(self, r):
        """The executor answers 302 to itself while stages pass without a
        challenge; the browser's fetch() follows each."""
        while r.status == 302:
            assert urljoin(r.url, r.location) == self.executor_url, r.location
            r = self.get(self.executor_url)
        return r

    @staticmethod
    def challenge(r):
        assert r.status == 200 and r.header_all("Content-Type")[0] == "application/json", (r.status, r.text[:200])
        return r.json()

    def solve(self, component, **answer):
        headers = {"Content-Type": "application/json"}
        if self.csrf and "authentik_csrf" in self.c.cookies:
            headers["X-authentik-CSRF"] = self.c.cookies["authentik_csrf"]
        r = self.c.request("POST", self.executor_url, body=json.dumps({"component": component, **answer}),
                           headers=headers)
        return self.fetch(r)

    def answer(self, component, **answer):
        return self.challenge(self.solve(component, **answer))

    def follow(self, ch):
        """xak-flow-redirect: go to `to` (another flow, or the client's callback)."""
        assert ch["component"] == "xak-flow-redirect", ch
        if ch["to"].startswith(self.cb):
            return ch["to"]
        return self.start(ch["to"])

    def login(self, username, password):
        ch = self.authorize()
        assert ch["component"] == "ak-stage-identification", ch
        ch = self.answer("ak-stage-identification", uid_field=username)
        assert ch["component"] == "ak-stage-password", ch
        return self.answer("ak-stage-password", password=password)

    def redeem(self, location):
        query = dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))
        raw = base64.b64encode(b"demo-app:demo-secret").decode()
        form = {"grant_type": "authorization_code", "code": query["code"], "redirect_uri": self.cb,
                "code_verifier": VERIFIER}
        return self.c.request("POST", self.root + "/application/o/token/", form=form,
                              headers={"Authorization": "Basic " + raw})

    def finish(self, ch):
        """From the end of the authentication flow to the code, redeemed."""
        ch = self.follow(ch)
        location = ch if isinstance(ch, str) else self.follow(ch)
        keys = [k for k, _ in parse_qsl(urlsplit(location).query, keep_blank_values=True)]
        assert keys == ["code", "state"], keys
        t = self.redeem(location)
        assert t.status == 200 and "id_token" in t.json(), (t.status, t.text[:200])
        return t.json()
