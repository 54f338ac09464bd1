"""selftest: other origins, where the answer arrives, broken framing."""
import json
import re
from urllib.parse import urlencode, urlsplit

from selftest_support import (OTHERS, RUN, Client, answer, auth_params, authorize_get, form_fields,
                              hits, issuer, raw_exchange, redeem)


def t_listeners_and_xorigin(base):
    if not OTHERS:
        print("skip t_listeners_and_xorigin: no extra listeners given")
        return
    c, iss, other = Client(base), issuer(base, "xorigin-form"), OTHERS[0]
    assert urlsplit(other).hostname == "127.0.0.2" and len(OTHERS) == 2
    # Every listener serves every scenario and records into the same run.
    assert c.request("GET", f"{other}/t/{RUN}-x/direct/somewhere").status == 404
    assert [h["listener"] for h in c.request("GET", f"{base}/_hits/{RUN}-x").json()] == [urlsplit(other).netloc]
    # xorigin-form: the form on this origin posts to the other origin.
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    page = c.request("GET", r.location)
    action, hidden = form_fields(page.text, 'type="password"')
    assert action == issuer(other, "xorigin-form") + "/login", action
    r = c.request("POST", action, form={**hidden, "username": "alice", "password": "wonderland"})
    assert redeem(c, iss, answer(r.location)["code"]).status == 200
    # /_config/<run> names the other origin (here the second 127.0.0.1 port).
    cfg = c.request("POST", f"{base}/_config/{RUN}", json.dumps({"other": OTHERS[1]}),
                    {"Content-Type": "application/json"})
    assert cfg.json() == {"ok": True}
    iss = issuer(base, "xorigin-307")
    form = auth_params(iss, username="alice", password="wonderland")
    r = c.request("POST", iss + "/authorize", form=form)
    assert r.status == 307 and r.location.startswith(issuer(OTHERS[1], "xorigin-307") + "/authorize?txn="), r.location
    r = c.request("POST", r.location, form=form)
    assert redeem(c, iss, answer(r.location)["code"]).status == 200
    c.request("POST", f"{base}/_config/{RUN}", "{}", {"Content-Type": "application/json"})
    for scenario in ("xorigin-redirect", "echo-headers"):
        iss, n = issuer(base, scenario), len(hits(c, base))
        r = c.request("POST", iss + "/authorize", form=auth_params(iss), headers={"X-Api-Key": "k-123"})
        r = c.request("GET", r.location, headers={"X-Api-Key": "k-123"})
        assert r.header_all("Set-Cookie") == ["hop=1; Path=/"] and r.location.startswith(iss + "/finish?")
        assert ("x-api-key: k-123" in r.text) == (scenario == "echo-headers")
        r = c.request("GET", r.location)
        assert redeem(c, iss, answer(r.location)["code"]).status == 200
        listeners = [h["listener"] for h in hits(c, base, n)]
        assert listeners[1] == urlsplit(other).netloc and listeners.count(listeners[0]) == 3, listeners
        assert hits(c, base, n)[0]["status"] == 302


def t_answers_elsewhere_and_forged_errors(base):
    c = Client(base)
    iss, r = authorize_get(c, base, "meta-answer-elsewhere")
    url = re.search(r'content="0;url=([^"]*)"', r.text).group(1).replace("&amp;", "&")
    assert r.status == 200 and url.startswith(iss + "/elsewhere?code=") and answer(url)["state"] == "st-1"
    iss, r = authorize_get(c, base, "refresh-header-elsewhere")
    refresh = r.header_all("Refresh")[0]
    assert refresh.startswith(f"0; url={iss}/elsewhere?code=") and "<form" not in r.text
    iss, r = authorize_get(c, base, "autosubmit-elsewhere")
    action, hidden = form_fields(r.text, "code")
    assert action == iss + "/elsewhere" and hidden["state"] == "st-1" and 'onload="document.forms[0].submit()"' in r.text
    assert c.request("GET", action).text == "elsewhere reached\n"
    _, r = authorize_get(c, base, "error-no-state")
    a = answer(r.location)
    assert a["error"] == "invalid_scope" and "state" not in a and "evil.example" in a["error_description"]
    _, r = authorize_get(c, base, "error-wrong-state")
    a = answer(r.location)
    assert a["error"] == "access_denied" and a["state"].startswith("forged-") and a["error_description"].startswith("\x1b[2J")
    _, r = authorize_get(c, base, "iss-other-origin")
    assert answer(r.location)["iss"] == "http://127.0.0.2:1/evil"
    _, r = authorize_get(c, base, "iss-same-origin")
    assert answer(r.location)["iss"] == base + "/other-tenant"


def t_redirect_normalised(base):
    import uri_variants
    c = Client(base)
    iss = issuer(base, "redirect-normalised")
    cb = iss + "/cb"
    _, r = authorize_get(c, base, "redirect-normalised")
    expected = "HTTP://" + base[len("http://"):] + "/./" + urlsplit(cb).path[1:-2] + "%63b?"
    assert r.location.startswith(expected), r.location
    _, r = authorize_get(c, base, "redirect-normalised", variant="percent-encoded")
    assert r.location.startswith(iss + "/%63b?code=")
    assert redeem(c, iss, answer(r.location)["code"]).status == 200  # the original redirect_uri
    for uri in ("http://127.0.0.1:8765/callback", "http://localhost/cb?x=1", "com.example.app:/cb"):
        for name in uri_variants.VARIANTS:
            out = uri_variants.rewrite(uri, name)
            a, b = urlsplit(uri), urlsplit(out)
            default = {"http": 80}.get(a.scheme)
            assert (a.scheme, a.hostname, a.port or default, a.query) == \
                (b.scheme, b.hostname, b.port or default, b.query), (uri, out)
    assert uri_variants.rewrite("http://localhost/cb", "default-port") == "http://localhost:80/cb"
    assert uri_variants.rewrite("https://h:443/cb", "default-port") == "https://h/cb"
    assert uri_variants.rewrite("http://127.0.0.1:8765/callback", "all") == "HTTP://127.0.0.1:8765/./%63allback"


def t_trailers_and_interim(base):
    c = Client(base)
    for scenario in ("trailer-cookie", "interim-1xx"):
        iss = issuer(base, scenario)
        path = f"/t/{RUN}/{scenario}/authorize?" + urlencode(auth_params(iss))
        raw = raw_exchange(base, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        assert b"Set-Cookie: evil=1" in raw and b"Location: http://127.0.0.1:9/evil" in raw, raw
        if scenario == "trailer-cookie":
            assert raw.endswith(b"0\r\nSet-Cookie: evil=1; Path=/\r\nLocation: http://127.0.0.1:9/evil\r\n\r\n")
        else:
            assert raw.startswith(b"HTTP/1.1 103 Early Hints\r\n") and b"HTTP/1.1 302" in raw
        # http.client drops trailers; a right client follows the real Location.
        _, r = authorize_get(c, base, scenario) if scenario == "trailer-cookie" else (None, None)
        if r is not None:
            assert r.status == 302 and r.location.startswith(iss + "/next?txn=") and "evil" not in c.cookies
            r = c.request("GET", r.location)
            t = redeem(c, iss, answer(r.location)["code"])
            assert t.status == 200 and t.json()["access_token"] and t.header_all("Transfer-Encoding") == ["chunked"]


def t_framing_faults(base):
    iss = issuer(base, "http09")
    path = f"/t/{RUN}/http09/authorize?" + urlencode(auth_params(iss))
    raw = raw_exchange(base, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert raw.startswith(b"Location: ") and b"HTTP/1." not in raw
    iss = issuer(base, "short-body")
    path = f"/t/{RUN}/short-body/authorize?" + urlencode(auth_params(iss))
    raw = raw_exchange(base, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert b"Content-Length: 100" in raw and raw.endswith(b"\r\n\r\n<html><bod")
    iss = issuer(base, "endless-chunked")
    path = f"/t/{RUN}/endless-chunked/authorize?" + urlencode(auth_params(iss))
    raw = raw_exchange(base, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), duration=1.2)
    assert b"Transfer-Encoding: chunked" in raw and raw.count(b"still loading") >= 3 and not raw.endswith(b"0\r\n\r\n")
    c = Client(base)
    _, r = authorize_get(c, base, "token-short-body")
    raw = raw_exchange(base, f"POST /t/{RUN}/token-short-body/token HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode())
    assert b"Content-Length: 100" in raw and raw.endswith(b"<html><bod")
    raw = raw_exchange(base, f"POST /t/{RUN}/token-http09/token HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode())
    assert raw.startswith(b"Location: ")
