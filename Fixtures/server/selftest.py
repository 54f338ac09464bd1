#!/usr/bin/env python3
"""End-to-end checks of the fixture server, standard library only.

    python3 Fixtures/server/selftest.py [BASE_URL [OTHER_LISTENER_URL...]]

Without BASE_URL it starts fixture_server.py itself (ephemeral port,
--watch-stdin, extra listeners on 127.0.0.2 and a second 127.0.0.1 port).
The cross-origin checks need OTHER_LISTENER_URLs; they are skipped without.
Redirects are never followed automatically: like authcode, each hop is
decided here. The checks of the newer scenarios live in selftest_origins.py,
selftest_tokens.py and selftest_servers.py, those of the signing scenarios
in selftest_jose.py, selftest_profile.py and selftest_dpop.py (skipped
without `cryptography`); helpers in selftest_support.py and
selftest_jose_support.py.
Last line: `N passed, M failed`; exit 0 iff M == 0.
"""
import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import time
import traceback
from urllib.parse import urlencode, urljoin, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selftest_dpop  # noqa: E402
import selftest_jose  # noqa: E402
import selftest_origins  # noqa: E402
import selftest_profile  # noqa: E402
import selftest_servers  # noqa: E402
import selftest_tokens  # noqa: E402
from jwt_util import decode_unverified  # noqa: E402
from selftest_support import (OTHERS, RUN, VERIFIER, Client, answer, auth_params,  # noqa: E402
                              form_fields, issuer, raw_get, redeem)


def t_direct_basic_weird_client(base):
    c, iss = Client(base), issuer(base, "direct")
    r = c.request("POST", iss + "/authorize", form=auth_params(iss, "weird:app id"))
    assert r.status == 302 and r.location.startswith(iss + "/cb?"), r.location
    a = answer(r.location)
    assert a["state"] == "st-1" and "iss" not in a
    t = redeem(c, iss, a["code"], "weird:app id", "p@ss:w/rd+ =%&")
    assert t.status == 200, t.text
    body = t.json()
    assert list(body)[:5] == ["access_token", "token_type", "expires_in", "refresh_token", "scope"]
    assert body["scope"] == "openid email" and ": " not in t.text
    claims = decode_unverified(body["id_token"])
    assert claims["iss"] == iss and claims["aud"] == "weird:app id" and claims["nonce"] == "n-1"
    again = redeem(c, iss, a["code"], "weird:app id", "p@ss:w/rd+ =%&")
    assert again.status == 400 and again.json()["error"] == "invalid_grant"


def t_client_auth_failures(base):
    c, iss = Client(base), issuer(base, "direct")

    def code():
        return answer(c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss))).location)["code"]
    raw = "weird:app id:p@ss:w/rd+ =%&".encode()  # not form-encoded: must fail
    r = c.request("POST", iss + "/token", form={"grant_type": "authorization_code", "code": code(),
                  "redirect_uri": iss + "/cb", "code_verifier": VERIFIER},
                  headers={"Authorization": "Basic " + base64.b64encode(raw).decode()})
    assert r.status == 401 and r.header_all("WWW-Authenticate"), r.status
    r = redeem(c, iss, code(), secret="wrong", basic=False)
    assert r.status == 401 and r.json() == {"error": "invalid_client"}
    r = redeem(c, iss, code(), client_secret="demo-secret")  # Basic AND body
    assert r.status == 400 and r.json()["error"] == "invalid_request"
    r = redeem(c, iss, code(), basic=False, code_verifier="x" * 43)
    assert r.json() == {"error": "invalid_grant", "error_description": "PKCE verification failed"}
    r = redeem(c, iss, code(), redirect_uri=iss + "/cb/")
    assert r.status == 400 and r.json()["error"] == "invalid_grant"
    assert redeem(c, iss, code(), basic=False).status == 200  # client_secret_post


def t_public_client_and_validation(base):
    c, iss = Client(base), issuer(base, "direct")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, "public-app", code_challenge=None, code_challenge_method=None)))
    assert answer(r.location)["error"] == "invalid_request"
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, "public-app", code_challenge_method="plain", code_challenge=VERIFIER)))
    assert redeem(c, iss, answer(r.location)["code"], "public-app", None).status == 200
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, "nobody")))
    assert r.status == 400 and r.location is None and "unknown client" in r.text
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, username="alice", password="x")))
    assert answer(r.location)["error"] == "access_denied"
    p = auth_params(iss, redirect_uri="com.example.app:/cb?x=1", response_mode="fragment")
    r = c.request("POST", issuer(base, "status-303") + "/authorize", form=p)
    assert r.status == 303 and r.location.startswith("com.example.app:/cb?x=1#code="), r.location


def t_login_consent(base):
    c, iss = Client(base), issuer(base, "login-consent")
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    assert r.status == 302 and r.location.startswith(iss + "/login?return="), r.location
    cookies = r.header_all("Set-Cookie")
    assert len(cookies) == 2 and f"Path=/t/{RUN}/login-consent; HttpOnly" in cookies[0]
    page = c.request("GET", r.location)
    action, hidden = form_fields(page.text, 'type="password"')
    assert action == "login" and hidden["csrf_token"] == c.cookies["csrf"]
    assert page.text.index('action="/search"') < page.text.index('type="password"')
    bad = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "no"})
    assert bad.status == 200 and "Invalid username or password." in bad.text
    ok = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "wonderland", "remember": "yes"})
    assert ok.status == 303 and ok.location == iss + "/consent"
    consent = c.request("GET", ok.location)
    action, hidden = form_fields(consent.text, "decision")
    assert consent.text.index('value="deny"') < consent.text.index('value="allow"')
    assert c.request("POST", action, form=hidden).status == 400  # no decision
    done = c.request("POST", action, form={**hidden, "decision": "allow"})
    a = answer(done.location)
    assert done.status == 302 and a["state"] == "st-1"
    assert redeem(c, iss, a["code"]).status == 200
    # Signed in already: straight to consent; deny gives access_denied.
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    assert r.location == iss + "/consent"
    _, hidden = form_fields(c.request("GET", r.location).text, "decision")
    denied = c.request("POST", action, form={**hidden, "decision": "deny"})
    assert answer(denied.location) == {"error": "access_denied", "error_description": "The user denied the request", "state": "st-1"}


def t_login_direct_and_cookie_domain(base):
    c, iss = Client(base), issuer(base, "login-direct")
    page = c.request("POST", iss + "/authorize", form={**auth_params(iss), "username": "alice", "password": "wonderland"})
    action, hidden = form_fields(page.text, 'type="password"')
    assert page.status == 200 and action == "" and "txn" in hidden
    r = c.request("POST", iss + "/authorize", form={**hidden, "username": "alice", "password": "wonderland"})
    assert redeem(c, iss, answer(r.location)["code"]).status == 200
    c, iss = Client(base), issuer(base, "login-cookie-domain")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    assert "sid=" in r.header_all("Set-Cookie")[0] and "Domain=.127.0.0.1; Path=/; Max-Age=600" in r.header_all("Set-Cookie")[0]
    _, hidden = form_fields(c.request("GET", r.location).text, 'type="password"')
    r = c.request("POST", iss + "/login", form={**hidden, "username": "alice", "password": "wonderland"})
    assert r.status == 302 and redeem(c, iss, answer(r.location)["code"]).status == 200


def t_json_login(base):
    c, iss = Client(base), issuer(base, "json-login")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    assert r.location == iss + "/login"
    bad = c.request("POST", iss + "/api/login", json.dumps({"username": "alice", "password": "x"}), {"Content-Type": "application/json"})
    assert bad.status == 401 and bad.json() == {"error": "bad credentials"}
    ok = c.request("POST", iss + "/api/login", json.dumps({"username": "alice", "password": "wonderland"}), {"Content-Type": "application/json"})
    assert ok.status == 200 and ok.json() == {"ok": True} and "session" in c.cookies
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    assert redeem(c, iss, answer(r.location)["code"]).status == 200


def t_redirect_games(base):
    c = Client(base)
    for scenario, hops in (("chain", 3), ("chain-307", 1)):
        iss = issuer(base, scenario)
        form = urlencode(auth_params(iss))
        r = c.request("POST", iss + "/authorize", form, {"Content-Type": "application/x-www-form-urlencoded"})
        for _ in range(hops):
            target = urljoin(r.url, r.location)
            if r.status == 307:
                prev_method = "GET" if scenario == "chain" else "POST"
                r = c.request(prev_method, target, form if prev_method == "POST" else None,
                              {"Content-Type": "application/x-www-form-urlencoded"})
            else:
                r = c.request("GET", target)
        assert r.status == 302 and r.location.startswith(iss + "/cb?code="), (scenario, r.status, r.text)
        assert redeem(c, iss, answer(r.location)["code"]).status == 200
    iss = issuer(base, "chain-307")  # a 307 turned into a GET is refused
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    assert c.request("GET", urljoin(r.url, r.location)).status == 400
    iss = issuer(base, "long-chain")
    r, n = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss))), 1
    while not urlsplit(urljoin(r.url, r.location)).path.endswith("/cb"):
        r, n = c.request("GET", urljoin(r.url, r.location)), n + 1
    assert n == 26, n  # LONG_CHAIN_HOPS (25, scenarios.py) redirects, then the answer
    iss = issuer(base, "loop")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    seen = [urljoin(r.url, r.location)]
    for _ in range(3):
        r = c.request("GET", seen[-1])
        seen.append(urljoin(r.url, r.location))
    assert seen == [iss + "/a", iss + "/b", iss + "/a", iss + "/b"]
    for scenario in ("relative", "relative-dots"):
        iss = issuer(base, scenario)
        r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
        assert not r.location.startswith("http") and urljoin(r.url, r.location).startswith(iss + "/cb?code=")


def t_form_post_and_discovery(base):
    c, iss = Client(base), issuer(base, "form-post")
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    action, hidden = form_fields(r.text, "code")
    assert r.status == 200 and action == iss + "/cb" and hidden["iss"] == iss and "onload" in r.text
    assert redeem(c, iss, hidden["code"]).status == 200
    iss = issuer(base, "discovery")
    meta = c.request("GET", iss + "/.well-known/openid-configuration").json()
    assert meta["issuer"] == iss and meta["authorization_response_iss_parameter_supported"] is True
    iss = issuer(base, "discovery-8414")
    assert c.request("GET", iss + "/.well-known/openid-configuration").status == 404
    root = c.request("GET", f"{base}/.well-known/oauth-authorization-server/t/{RUN}/discovery-8414")
    assert root.json()["token_endpoint"] == iss + "/token"
    assert c.request("GET", iss + "/.well-known/oauth-authorization-server").status == 200
    wrong = c.request("GET", issuer(base, "discovery-wrong-issuer") + "/.well-known/openid-configuration")
    assert wrong.json()["issuer"] == "https://other.example"


def t_token_scenarios(base):
    c = Client(base)

    def token_for(scenario, **kw):
        iss = issuer(base, scenario)
        r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss, **kw)))
        return redeem(c, iss, answer(r.location)["code"])
    assert token_for("token-400").json()["error_description"] == "The code has expired"
    assert token_for("token-401").status == 401
    r = token_for("token-500")
    assert r.status == 500 and "text/html" in r.header_all("Content-Type")[0]
    assert token_for("token-bad-json").text == '{"access_token": "x",'
    assert "access_token" not in token_for("token-no-access-token").json()
    assert token_for("token-expires-string").json()["expires_in"] == "3600"
    assert token_for("token-pretty").text.count("\n") > 4
    huge = token_for("token-huge")
    assert len(huge.body) == 5 * 1024 * 1024 and huge.json()["access_token"].startswith("at-")
    assert token_for("token-deep").text == "[" * 10000 + "]" * 10000
    assert "id_token" not in token_for("direct", scope="email").json()
    claims = {s: decode_unverified(token_for(s, scope="email").json()["id_token"]) for s in (
        "idtoken-wrong-iss", "idtoken-wrong-aud", "idtoken-expired", "idtoken-wrong-nonce",
        "idtoken-aud-array-azp", "idtoken-aud-array-no-azp")}
    assert claims["idtoken-wrong-iss"]["iss"] == "https://evil.example"
    assert claims["idtoken-expired"]["exp"] < time.time()
    assert claims["idtoken-wrong-nonce"]["nonce"] != "n-1"
    assert claims["idtoken-aud-array-azp"]["azp"] == "demo-app"
    assert "azp" not in claims["idtoken-aud-array-no-azp"]
    assert token_for("idtoken-bad").json()["id_token"] == "not.a.jwt"


def t_odd_responses(base):
    c = Client(base)
    iss = issuer(base, "cookie-flood")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    assert len(r.header_all("Set-Cookie")) == 200 and "code=" in r.location
    for scenario, check in (("no-location", lambda r: r.location is None),
                            ("bad-location", lambda r: r.location == "http://[::1"),
                            ("non-utf8", lambda r: b"\xff\xfe" in r.body and "<form" not in r.text)):
        iss = issuer(base, scenario)
        assert check(c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))), scenario
    iss = issuer(base, "elsewhere")
    r = c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss)))
    assert c.request("GET", r.location).text == "<p>nothing here</p>"


def t_timeouts_and_disconnects(base):
    c = Client(base)
    iss = issuer(base, "html-huge")
    assert b"200" in raw_get(base, f"/t/{RUN}/html-huge/authorize?" + urlencode(auth_params(iss)))
    for scenario in ("token-slow", "token-stall"):
        iss = issuer(base, scenario)
        code = answer(c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss))).location)["code"]
        slow = Client(base, timeout=1)
        try:
            r = redeem(slow, iss, code)
            raise AssertionError(f"{scenario}: no timeout ({r.status})")
        except (socket.timeout, TimeoutError, http.client.IncompleteRead):
            pass
        slow.conn.close()  # disconnect mid-response
    # token-drip: one byte every 0.5 s; take ~1.5 s of it, then hang up.
    u = urlsplit(base)
    with socket.create_connection((u.hostname, u.port), timeout=5) as s:
        s.sendall(f"POST /t/{RUN}/token-drip/token HTTP/1.1\r\nHost: {u.netloc}\r\n"
                  "Content-Length: 0\r\n\r\n".encode())
        got, deadline = b"", time.monotonic() + 1.5
        while time.monotonic() < deadline:
            got += s.recv(100)
    head, _, body = got.partition(b"\r\n\r\n")
    assert b"Content-Length: 100" in head and 0 < len(body) < 10, got
    hits = c.request("GET", f"{base}/_hits/{RUN}").json()
    assert hits and all(not h["path"].endswith("/cb") for h in hits)
    post = next(h for h in hits if h["method"] == "POST" and h["path"].endswith("/token"))
    assert post["form"]["grant_type"] == "authorization_code" and post["json"] is None
    assert c.request("DELETE", f"{base}/_hits/{RUN}").status == 200
    assert c.request("GET", f"{base}/_hits/{RUN}").json() == []
    assert c.request("GET", issuer(base, "direct") + "/cb").text == "callback reached\n"


def t_tls_stats_plain(base):
    """Over plain http no handshake is counted, and runs get no tls_* keys (tls_stats.py)."""
    c = Client(base)
    c.request("GET", issuer(base, "direct") + "/authorize")
    r = c.request("GET", f"{base}/_tls_stats")
    assert r.status == 200 and r.json() == {"handshakes": 0, "full": 0, "resumed": 0, "versions": {}}, r.text
    assert "tls_full" not in c.request("GET", f"{base}/_stats/{RUN}").json()
    assert c.request("POST", f"{base}/_tls_stats", form={}).status == 405


def main():
    proc = None
    if len(sys.argv) > 1:
        base = sys.argv[1].rstrip("/")
        OTHERS.extend(u.rstrip("/") for u in sys.argv[2:])
    else:
        server = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture_server.py")
        proc = subprocess.Popen([sys.executable, server, "--watch-stdin", "--extra-listen",
                                 "127.0.0.2:0", "--extra-listen", "127.0.0.1:0"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        while True:
            kind, url = proc.stdout.readline().split()
            if kind == "READY":
                base = url
                break
            OTHERS.append(url)
    modules = (sys.modules[__name__], selftest_origins, selftest_tokens, selftest_servers,
               selftest_jose, selftest_profile, selftest_dpop)
    tests = [(n, f) for m in modules for n, f in vars(m).items() if n.startswith("t_")]
    # t_timeouts_and_disconnects checks and then clears the run's hits: last.
    tests.sort(key=lambda t: t[0] == "t_timeouts_and_disconnects")
    passed = failed = 0
    for name, fn in tests:
        try:
            fn(base)
            passed += 1
            print(f"ok   {name}")
        except Exception:
            failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()}")
    if proc:
        alive = proc.poll() is None
        proc.stdin.close()  # --watch-stdin: EOF makes it exit
        proc.wait(timeout=5)
        if not alive:
            failed += 1
            print("FAIL server died during the run")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
