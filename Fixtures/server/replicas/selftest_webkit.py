"""What the self-tests of dex.py, gitea.py, gitlab.py, zitadel.py, entra.py
and adfs.py share: their own fixture server, one line per check and a last
line `N passed, M failed`, a browser that walks hop by hop (cookie jar per
host, never fetching the redirect_uri), an HTML form reader (html.parser),
the token request and the run's hits. Standard library (+ pyotp through the
callers).
"""
import base64
import hashlib
import http.client
import json
import os
import subprocess
import sys
import traceback
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

REDIRECT_URI = "http://127.0.0.1:9/callback"  # never fetched (nothing listens on port 9)
VERIFIER = "selftest-verifier-" + "v" * 40
CHALLENGE = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).rstrip(b"=").decode()


# ---- the server and the checks ---------------------------------------------------------

def start_server():
    server = os.path.join(os.path.dirname(HERE), "fixture_server.py")
    proc = subprocess.Popen([sys.executable, server, "--watch-stdin"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    if len(line) != 2 or line[0] != "READY":
        raise SystemExit("fixture server did not start: %r" % line)
    return proc, line[1]


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f"  ({detail})" if detail else ""))
        return ok

    def run(self, parts, base):
        for part in parts:
            try:
                part(self, base)
            except Exception:  # one broken part must not hide the others
                self.failed += 1
                print(f"FAIL {part.__name__}\n{traceback.format_exc()}")


def main(parts):
    proc, base = start_server()
    checks = Checks()
    try:
        checks.run(parts, base)
    finally:
        alive = proc.poll() is None
        proc.stdin.close()
        proc.wait(timeout=10)
        if not alive:
            checks.check("the fixture server stayed up", False)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


# ---- HTML forms ----------------------------------------------------------------------

class Form:
    def __init__(self, attrs):
        self.attrs = attrs
        self.action = attrs.get("action")
        self.method = (attrs.get("method") or "get").lower()
        self.inputs = []   # (name, value, type, attrs)
        self.buttons = []  # (name, value, attrs)

    def data(self, **overrides):
        """What a browser submits by default: hidden and text values, checked
        boxes (no button); then `overrides` (None drops a field)."""
        out = {}
        for name, value, kind, attrs in self.inputs:
            if not name or kind in ("submit", "button", "image"):
                continue
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                continue
            out.setdefault(name, value if value is not None else ("on" if kind == "checkbox" else ""))
        for key, value in overrides.items():
            key = key.replace("__", ".")
            if value is None:
                out.pop(key, None)
            else:
                out[key] = value
        return out

    def names(self):
        return [n for n, _, _, _ in self.inputs if n]


class _FormReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self.current, self.text = [], None, []

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.current = Form(a)
            self.forms.append(self.current)
        elif self.current is not None and tag in ("input", "select", "textarea"):
            self.current.inputs.append((a.get("name"), a.get("value"), a.get("type", "text").lower(), a))
        elif self.current is not None and tag == "button":
            self.current.buttons.append((a.get("name"), a.get("value"), a))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None

    def handle_data(self, data):
        self.text.append(data)


def forms(html):
    reader = _FormReader()
    reader.feed(html)
    return reader.forms


def form_with(html, field):
    """The first form holding an input named `field`."""
    return next((f for f in forms(html) if field in f.names()), None)


def text_of(html):
    reader = _FormReader()
    reader.feed(html)
    return " ".join(" ".join(reader.text).split())


# ---- the browser ---------------------------------------------------------------------

class Response:
    def __init__(self, url, resp, body):
        self.url, self.status, self.body = url, resp.status, body
        self.headers = resp.getheaders()
        self.text = body.decode("utf-8", errors="replace")
        self.location = resp.getheader("Location")

    def header_all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]

    def json(self):
        return json.loads(self.body)


class Browser:
    """One user agent: cookies per host (name -> value), hop by hop."""
    count = 0

    def __init__(self, base, scenario, config=None, run=None):
        Browser.count += 1
        self.base, self.scenario = base, scenario
        self.run = run or f"replica-{os.getpid()}-{Browser.count}"
        self.root = f"{base}/t/{self.run}/{scenario}"
        self.jar = {}
        if config is not None:
            r = self.request("POST", f"{base}/_config/{self.run}", body=json.dumps(config).encode(),
                             headers={"Content-Type": "application/json"})
            assert r.status == 200, r.text

    def cookies(self, url):
        return self.jar.setdefault(urlsplit(url).netloc, {})

    def request(self, method, url, form=None, body=None, headers=None, json_body=None):
        u = urlsplit(url)
        hdrs = dict(headers or {})
        if form is not None:
            body = urlencode(form).encode()
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            body = json.dumps(json_body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        jar = self.cookies(url)
        if jar:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=20)
        conn.request(method, u.path + ("?" + u.query if u.query else ""), body, hdrs)
        resp = conn.getresponse()
        result = Response(url, resp, resp.read())
        conn.close()
        for value in result.header_all("Set-Cookie"):
            pair = value.split(";")[0]
            name, _, val = pair.partition("=")
            if "max-age=0" in value.lower().replace(" ", ""):
                jar.pop(name.strip(), None)
            else:
                jar[name.strip()] = val
        return result

    def get(self, url, **kw):
        return self.request("GET", url, **kw)

    def post(self, url, form, **kw):
        return self.request("POST", url, form=form, **kw)

    def submit(self, page, form, **overrides):
        """Submit `form` of `page` the way a browser does."""
        action = urljoin(page.url, form.action) if form.action is not None else page.url
        data = form.data(**overrides)
        if form.method == "post":
            return self.post(action, data)
        sep = "&" if "?" in action else "?"
        return self.get(action + sep + urlencode(data))

    def follow(self, resp, limit=15):
        """Follow redirects (GET) until a page, or until the redirect_uri: that
        one is returned unfetched (resp.location holds the answer)."""
        for _ in range(limit):
            if resp.status not in (301, 302, 303, 307, 308) or not resp.location:
                return resp
            target = urljoin(resp.url, resp.location)
            if target.startswith(REDIRECT_URI):
                return resp
            resp = self.get(target)
        raise AssertionError("too many redirects")

    def hits(self):
        return self.get(f"{self.base}/_hits/{self.run}").json()


def auth_params(client_id="demo-app", **extra):
    p = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT_URI, "state": "st-1",
         "scope": "openid email", "nonce": "n-1", "code_challenge": CHALLENGE, "code_challenge_method": "S256"}
    p.update(extra)
    return {k: v for k, v in p.items() if v is not None}


def answer(resp):
    """The authorization response's parameters from a redirect to the redirect_uri."""
    if not resp.location or not resp.location.startswith(REDIRECT_URI):
        return {}
    return dict(parse_qsl(urlsplit(resp.location).query))


def redeem(browser, token_url, code, client_id="demo-app", secret="demo-secret"):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
            "code_verifier": VERIFIER, "client_id": client_id}
    if secret:
        form["client_secret"] = secret
    return browser.post(token_url, form)


def id_token_claims(token_response):
    part = token_response.json()["id_token"].split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def totp_now(seed, offset=0):
    import time
    import pyotp  # noqa: PLC0415 (venv)
    return pyotp.TOTP(seed).at(time.time() + offset)
