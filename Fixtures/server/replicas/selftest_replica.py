"""What the replicas' self-tests share: a fixture server of their own, a
check registry that prints one line per check and `N passed, M failed`, and
a browser-like flow (cookie jar, run config, the authorization and token
requests, the run's hits). Standard library, plus pyotp for TOTP codes.
"""
import base64
import json
import os
import subprocess
import sys
import traceback
from html.parser import HTMLParser
from urllib.parse import parse_qs, quote_plus, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from selftest_support import CHALLENGE, VERIFIER, Client  # noqa: E402
from jwt_util import decode_unverified  # noqa: E402


def totp_code(seed: str) -> str:
    import pyotp  # noqa: PLC0415 (the venv has it)
    return pyotp.TOTP(seed).now()


def unescape_js(text: str) -> str:
    """Undo a JavaScript string literal's \\xHH and \\uHHHH escapes."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("\\x", i):
            out.append(chr(int(text[i + 2:i + 4], 16)))
            i += 4
        elif text.startswith("\\u", i):
            out.append(chr(int(text[i + 2:i + 6], 16)))
            i += 6
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action"), "method": a.get("method", "get").upper(),
                               "attrs": a, "fields": {}, "buttons": []})
        elif self.forms and tag == "input" and a.get("name") and a.get("type") != "submit":
            if a.get("type") != "checkbox":
                self.forms[-1]["fields"][a["name"]] = a.get("value", "")
        elif self.forms and tag == "button" and a.get("name"):
            self.forms[-1]["buttons"].append((a["name"], a.get("value", "")))


def forms(html: str) -> list:
    """Every form of a page: action, method, attrs, fields (inputs with a
    name, checkboxes left out), buttons [(name, value)]."""
    parser = _Forms()
    parser.feed(html)
    return parser.forms


class Flow:
    """One browser against one scenario of one run (its own run name)."""
    counter = 0

    def __init__(self, base, scenario, config=None):
        Flow.counter += 1
        self.base, self.scenario = base, scenario
        self.run = f"replica-{os.getpid()}-{Flow.counter}"
        self.root = f"{base}/t/{self.run}/{scenario}"
        self.redirect_uri = "http://127.0.0.1:9/callback"
        self.client = Client(base)
        self.cookies = self.client.cookies
        if config is not None:
            r = self.post_raw(f"{base}/_config/{self.run}", json.dumps(config).encode(),
                              {"Content-Type": "application/json"})
            assert r.status == 200, r.text

    def get(self, url, headers=None):
        return self.client.request("GET", url, headers=headers)

    def post_raw(self, url, body: bytes, headers):
        return self.client.request("POST", url, body, headers)

    def post_json(self, url, obj, headers):
        return self.client.request("POST", url, json.dumps(obj), headers)

    def post_form(self, url, fields, headers=None):
        return self.client.request("POST", url, headers=headers, form=fields)

    def hits(self):
        return self.get(f"{self.base}/_hits/{self.run}").json()

    def auth_params(self, **extra):
        p = {"response_type": "code", "client_id": "demo-app", "redirect_uri": self.redirect_uri,
             "state": "st-" + self.run, "scope": "openid email", "nonce": "n-1",
             "code_challenge": CHALLENGE, "code_challenge_method": "S256"}
        p.update(extra)
        return p

    def answer(self, location):
        """The redirect_uri's parameters; the state must be ours."""
        got = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
        assert got.get("state") == "st-" + self.run, got
        return got.get("code") or got

    def redeem(self, token_url, code):
        raw = f"{quote_plus('demo-app')}:{quote_plus('demo-secret')}".encode()
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect_uri,
                "code_verifier": VERIFIER}
        r = self.client.request("POST", token_url, form=form,
                                headers={"Authorization": "Basic " + base64.b64encode(raw).decode()})
        assert r.status == 200, (r.status, r.text)
        return r

    @staticmethod
    def claims(jwt):
        return decode_unverified(jwt)


class Checks:
    def __init__(self):
        self.checks = []

    def register(self, fn):
        self.checks.append(fn)
        return fn

    def main(self, argv) -> int:
        try:
            import pyotp  # noqa: F401, PLC0415
        except ImportError:
            print("these replicas need pyotp: run with the venv's python (make venv; .venv/bin/python …)")
            return 2
        proc = None
        if argv:
            base = argv[0].rstrip("/")
        else:
            server = os.path.join(os.path.dirname(HERE), "fixture_server.py")
            proc = subprocess.Popen([sys.executable, server, "--watch-stdin"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True)
            kind, base = proc.stdout.readline().split()
            assert kind == "READY", kind
        passed = failed = 0
        for fn in self.checks:
            try:
                fn(base)
                passed += 1
                print(f"ok   {fn.__name__}")
            except Exception:  # noqa: BLE001 (a failed check is reported, the rest run)
                failed += 1
                print(f"FAIL {fn.__name__}\n{traceback.format_exc()}")
        if proc is not None:
            proc.stdin.close()  # --watch-stdin: EOF makes it exit
            proc.wait(timeout=10)
        print(f"{passed} passed, {failed} failed")
        return 0 if failed == 0 else 1
