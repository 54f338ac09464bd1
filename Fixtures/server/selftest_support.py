"""Helpers of selftest.py: a hop-by-hop HTTP client, the authorization and
token requests, raw sockets. Standard library only."""
import base64
import hashlib
import hmac
import http.client
import json
import os
import re
import socket
import sys
import time
from urllib.parse import parse_qs, quote_plus, urlencode, urljoin, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jwt_util import decode_unverified  # noqa: E402

RUN = f"selftest-{os.getpid()}"
OTHERS = []  # the server's extra listeners (LISTEN lines), other origins; filled by selftest.main
VERIFIER = "v" * 20 + "-verifier-for-selftest-0123456789"
http.client._MAXHEADERS = 1000  # cookie-flood sends 200 Set-Cookie headers
CHALLENGE = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).rstrip(b"=").decode()


class Response:
    def __init__(self, resp, body):
        self.status, self.body = resp.status, body
        self.headers = resp.getheaders()
        self.location = resp.getheader("Location")
        self.text = body.decode("utf-8", errors="replace")

    def json(self):
        return json.loads(self.body)

    def header_all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]


class Client:
    """Keep-alive connections (one per origin) and a naive cookie jar (name -> value)."""

    def __init__(self, base, timeout=10):
        self.base, self.cookies, self.timeout = base, {}, timeout
        self.conns = {}
        self.conn = self.connection(base)

    def connection(self, url):
        u = urlsplit(url)
        if u.netloc not in self.conns:
            self.conns[u.netloc] = http.client.HTTPConnection(u.hostname, u.port, timeout=self.timeout)
        return self.conns[u.netloc]

    def request(self, method, url, body=None, headers=None, form=None):
        url = urljoin(self.base + "/", url)
        headers = dict(headers or {})
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies and "Cookie" not in headers:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        u = urlsplit(url)
        conn = self.connection(url)
        conn.request(method, u.path + ("?" + u.query if u.query else ""), body, headers)
        resp = conn.getresponse()
        result = Response(resp, resp.read())
        for cookie in result.header_all("Set-Cookie"):
            name, _, value = cookie.split(";")[0].partition("=")
            self.cookies[name.strip()] = value
        result.url = url
        return result


def issuer(base, scenario):
    return f"{base}/t/{RUN}/{scenario}"


def auth_params(scenario_base, client_id="demo-app", **extra):
    p = {"response_type": "code", "client_id": client_id,
         "redirect_uri": scenario_base + "/cb", "state": "st-1", "scope": "openid email",
         "nonce": "n-1", "code_challenge": CHALLENGE, "code_challenge_method": "S256"}
    p.update(extra)
    return {k: v for k, v in p.items() if v is not None}


def answer(location, fragment=False):
    """Parameters of an authorization response Location."""
    part = urlsplit(location).fragment if fragment else urlsplit(location).query
    return {k: v[0] for k, v in parse_qs(part).items()}


def redeem(c, iss, code, client_id="demo-app", secret="demo-secret", basic=True, **extra):
    form = {"grant_type": "authorization_code", "code": code,
            "redirect_uri": iss + "/cb", "code_verifier": VERIFIER}
    headers = {}
    if secret is not None and basic:
        raw = f"{quote_plus(client_id)}:{quote_plus(secret)}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(raw).decode()
    else:
        form["client_id"] = client_id
        if secret is not None:
            form["client_secret"] = secret
    form.update(extra)
    return c.request("POST", iss + "/token", form={k: v for k, v in form.items() if v is not None},
                     headers=headers)


def form_fields(html, marker):
    """Hidden/default fields of the <form> containing `marker`."""
    form = next(f for f in re.findall(r"<form.*?</form>", html, re.S) if marker in f)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)"', form))
    action = re.search(r'action="([^"]*)"', form).group(1)
    return action, fields


# ---- the checks -------------------------------------------------------------------


def hits(c, base, since=0):
    return c.request("GET", f"{base}/_hits/{RUN}").json()[since:]


def authorize_get(c, base, scenario, **kw):
    iss = issuer(base, scenario)
    return iss, c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, **kw)))


def raw_exchange(base, request, timeout=5, duration=30):
    """Send raw bytes, read until the server closes, goes quiet for `timeout`
    or `duration` seconds have passed; then hang up."""
    u = urlsplit(base)
    got, deadline = b"", time.monotonic() + duration
    with socket.create_connection((u.hostname, u.port), timeout=timeout) as s:
        s.sendall(request)
        try:
            while time.monotonic() < deadline:
                data = s.recv(65536)
                if not data:
                    break
                got += data
        except socket.timeout:
            pass
    return got


def raw_get(base, path, read=100, timeout=5):
    """Send a GET on a raw socket, read a little, and hang up."""
    u = urlsplit(base)
    with socket.create_connection((u.hostname, u.port), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {u.netloc}\r\n\r\n".encode())
        return s.recv(read)


def refresh(c, iss, token, client_id="demo-app", secret="demo-secret", **extra):
    form = {"grant_type": "refresh_token", "refresh_token": token, **extra}
    raw = f"{quote_plus(client_id)}:{quote_plus(secret)}".encode()
    return c.request("POST", iss + "/token", form=form,
                     headers={"Authorization": "Basic " + base64.b64encode(raw).decode()})


def login_via_page(c, r, username="alice", password="wonderland"):
    """From a 302 to a login page: fetch it, submit the password form."""
    page = c.request("GET", urljoin(r.url, r.location))
    action, hidden = form_fields(page.text, 'type="password"')
    return page, c.request("POST", urljoin(page.url, action),
                           form={**hidden, "username": username, "password": password})


def totp_now(seed, digest="sha1", digits=6, period=30, at=None):
    """RFC 6238 with the standard library: an independent check of pyotp."""
    key = base64.b32decode(seed + "=" * (-len(seed) % 8))
    counter = int((time.time() if at is None else at) // period)
    mac = hmac.new(key, counter.to_bytes(8, "big"), digest).digest()
    offset = mac[-1] & 0x0F
    value = int.from_bytes(mac[offset:offset + 4], "big") & 0x7FFFFFFF
    return str(value % 10 ** digits).zfill(digits)


def users_flow(base, n, cookie_extra=None):
    """One full `users` flow for user<n> on its own connection and jar; returns sub."""
    c, iss = Client(base), issuer(base, "users")
    user, password = (f"user{n}", f"pw-{n}") if n else ("alice", "wonderland")
    page = c.request("POST", iss + "/authorize", form=auth_params(iss))
    action, hidden = form_fields(page.text, 'type="password"')
    r = c.request("POST", urljoin(page.url, action), form={**hidden, "username": user, "password": password})
    assert r.status == 303, (r.status, r.text[:100])
    action, hidden = form_fields(c.request("GET", r.location).text, "decision")
    r = c.request("POST", action, form={**hidden, "decision": "allow"})
    t = redeem(c, iss, answer(r.location)["code"])
    for conn in c.conns.values():
        conn.close()
    return decode_unverified(t.json()["id_token"])["sub"]
