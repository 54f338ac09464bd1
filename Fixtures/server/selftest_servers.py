"""selftest: echoed secrets, real-server behaviours, TOTP, many users."""
import base64
import json
import time
from urllib.parse import urlencode, urljoin

from selftest_support import (RUN, Client, answer, auth_params, authorize_get, form_fields,
                              issuer, login_via_page, redeem, totp_now, users_flow)


def t_echoes(base):
    c = Client(base)
    iss, r = authorize_get(c, base, "echo-page")
    assert r.header_all("Set-Cookie") == ["session=echosessionsecret42; Path=/; HttpOnly"]
    page = c.request("GET", r.location)
    action, hidden = form_fields(page.text, 'type="password"')
    r = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "p w+<&>"},
                  headers={"X-Api-Key": "key-9", "Authorization": "Basic " + base64.b64encode(b"alice:s3cr3t").decode()})
    assert r.status == 400
    for needle in ("raw=p w+<&>", "html=p w+&lt;&amp;&gt;", "pct=p%20w%2B%3C%26%3E", "pct-lower=p%20w%2b%3c%26%3e",
                   "plus=p+w%2B%3C%26%3E", 'json="p w+<&>"', "base64=cCB3KzwmPg==",
                   "authorization decoded: raw=alice:s3cr3t", "header x-api-key: raw=key-9",
                   "cookie: raw=session=echosessionsecret42"):
        assert needle in r.text, needle
    assert r.text.index("field password") < r.text.index("field username")
    c = Client(base)
    iss, r = authorize_get(c, base, "echo-cookie")
    assert r.header_all("Set-Cookie")[0] == "abcdefsecretvalue"
    page = c.request("GET", r.location)
    action, hidden = form_fields(page.text, 'type="password"')
    # A naive jar stores the nameless cookie under the name "abcdefsecretvalue"; send it bare.
    r = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "x"},
                  headers={"Cookie": "abcdefsecretvalue; session=sessionsecretvalue42"})
    assert r.status == 400 and "Cookie: abcdefsecretvalue; session=sessionsecretvalue42" in r.text
    iss, r = authorize_get(c, base, "echo-token")
    t = redeem(c, iss, answer(r.location)["code"])
    desc = t.json()["error_description"]
    assert t.status == 400 and "decoded: demo-app:demo-secret" in desc and "code_verifier=" in desc


def t_post_to_get_family(base):
    c = Client(base)
    iss = issuer(base, "post-to-get")
    r = c.request("POST", iss + "/authorize", form=auth_params(iss, username="alice", password="wonderland"))
    assert r.status == 302 and "password=wonderland" in r.location and r.location.startswith(iss + "/authorize?")
    r = c.request("GET", r.location)
    assert r.location.startswith(iss + "/login?txn=")
    _, r = login_via_page(c, r)
    assert redeem(c, iss, answer(r.location)["code"]).status == 200
    for scenario, times in (("post-to-get-late", 1), ("post-to-get-late-twice", 2)):
        c, iss = Client(base), issuer(base, scenario)
        r = c.request("POST", iss + "/authorize", form=auth_params(iss, username="alice", password="wonderland"))
        assert r.location == iss + "/login" and "wonderland" not in r.location
        cookie = c.cookies["session"].split(".")[0]
        assert "wonderland" in base64.urlsafe_b64decode(cookie + "=" * (-len(cookie) % 4)).decode()
        page = c.request("GET", r.location)
        action, hidden = form_fields(page.text, 'type="password"')
        r = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "wonderland"})
        encoded = "password%3Dwonderland" if times == 1 else "password%253Dwonderland"
        assert r.location.startswith(iss + "/continue?next=") and encoded in r.location, r.location
        r = c.request("GET", r.location)
        assert r.location.startswith(f"/t/{RUN}/{scenario}/authorize?") and "password=wonderland" in r.location
        r = c.request("GET", urljoin(base, r.location))
        assert redeem(c, iss, answer(r.location)["code"]).status == 200
    c, iss = Client(base), issuer(base, "post-403")
    r = c.request("POST", iss + "/authorize", form=auth_params(iss))
    assert r.status == 403 and "_xsrf" in r.text
    _, r = authorize_get(c, base, "post-403")
    _, r = login_via_page(c, r)
    assert redeem(c, iss, answer(r.location)["code"]).status == 200


def t_javascript_pages(base):
    c, iss = Client(base), issuer(base, "post-js-get-ok")
    for method in ("POST", "GET"):
        r = c.request(method, iss + "/authorize", form=auth_params(iss)) if method == "POST" else authorize_get(c, base, "post-js-get-ok")[1]
        assert r.status == 200 and "<form" not in r.text and "<script" in r.text and "kcContext" in r.text
    ok = c.request("POST", iss + "/api/login", json.dumps({"username": "alice", "password": "wonderland"}),
                   {"Content-Type": "application/json"})
    assert ok.json() == {"ok": True}
    assert c.request("POST", iss + "/authorize", form=auth_params(iss)).status == 200
    _, r = authorize_get(c, base, "post-js-get-ok")
    assert redeem(c, iss, answer(r.location)["code"]).status == 200
    iss, r = authorize_get(c, base, "js-login")
    again = c.request("GET", iss + "/login-actions/authenticate")
    assert r.status == again.status == 200 and "<form" not in again.text and "<script" in again.text
    iss, r = authorize_get(c, base, "noscript-form")
    page, r = login_via_page(c, r)
    assert "<noscript>" in page.text and "<script" in page.text
    assert redeem(c, iss, answer(r.location)["code"]).status == 200


def t_login_error_pages(base):
    c = Client(base)
    expect = {"login-error-hidden-banner": (200, ["Old banner", "Hidden alert", '<div role="alert">Invalid username or password.</div>']),
              "login-error-noscript": (200, ['<noscript><div class="error" role="alert">Enable JavaScript', '<p class="login_error">Invalid username or password.</p>']),
              "login-error-entities": (200, ["Invalid username or password. Don&#39;t &amp; &quot;retry&quot;"]),
              "login-error-css-hidden": (200, ["<style>.error { display: none; }</style>", '<div class="error">Your session has expired.</div>', '<div role="alert">Invalid username or password.</div>']),
              "login-error-401": (401, ["Invalid username or password."]),
              "login-error-403": (403, ["Invalid username or password."]),
              "login-error-422": (422, ["Invalid username or password."])}
    for scenario, (status, needles) in expect.items():
        iss, r = authorize_get(c, base, scenario)
        page, bad = login_via_page(c, r, password="nope")
        assert bad.status == status and 'type="password"' in bad.text, scenario
        assert all(n in bad.text for n in needles), (scenario, bad.text)
        action, hidden = form_fields(bad.text, 'type="password"')
        ok = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "wonderland"})
        assert redeem(c, iss, answer(ok.location)["code"]).status == 200, scenario


def t_totp(base):
    assert totp_now("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "sha1", 8, at=59) == "94287082"  # RFC 6238 App. B
    assert totp_now("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA", "sha256", 8, at=59) == "46119246"
    c = Client(base)
    iss, r = authorize_get(c, base, "totp")
    if r.status == 501:
        assert r.text == "pyotp not installed\n"
        print("skip t_totp: pyotp not installed (run with the Fixtures/django venv's python)")
        return
    for scenario, seed, digest, digits, field, auto in (
            ("totp", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "sha1", 6, "otp", True),
            ("totp-sha256-8", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA", "sha256", 8, "otp", True),
            ("totp-field-named", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "sha1", 6, "verification", False)):
        iss, r = authorize_get(c, base, scenario)
        page, r = login_via_page(c, r)
        assert r.status == 200 and f'name="{field}"' in r.text
        assert ('autocomplete="one-time-code"' in r.text) == auto
        otp_url = urljoin(urljoin(page.url, "login"), "otp")
        _, hidden = form_fields(r.text, f'name="{field}"')
        bad = c.request("POST", otp_url, form={**hidden, field: "0" * digits, "action": "verify"})
        assert bad.status == 200 and "Invalid authenticator code." in bad.text
        ok = c.request("POST", otp_url, form={**hidden, field: totp_now(seed, digest, digits), "action": "verify"})
        assert ok.status == 302, (scenario, ok.status, ok.text[:200])
        assert redeem(c, iss, answer(ok.location)["code"]).status == 200


def t_users_sessions(base):
    from concurrent.futures import ThreadPoolExecutor
    numbers = [0, 1, 100000] + list(range(2, 100000, 1999))
    started = time.monotonic()
    with ThreadPoolExecutor(50) as pool:
        subs = list(pool.map(lambda n: users_flow(base, n), numbers))
    rate = len(numbers) / (time.monotonic() - started)
    assert subs == [f"user{n}" if n else "alice" for n in numbers]
    print(f"info t_users_sessions: {len(numbers)} flows over 50 threads, {rate:.0f} flows/s")
    c, iss = Client(base), issuer(base, "users")
    bad = c.request("POST", iss + "/login", form={"username": "user100001", "password": "pw-100001"})
    assert bad.status == 400  # no session
    page = c.request("POST", iss + "/authorize", form=auth_params(iss))
    assert c.cookies.get("usid")
    action, hidden = form_fields(page.text, 'type="password"')
    r = c.request("POST", iss + "/login", form={**hidden, "username": "user7", "password": "pw-8"})
    assert r.status == 200 and "Invalid username or password." in r.text
    other = Client(base)
    other.request("POST", iss + "/authorize", form=auth_params(iss))
    two = f"usid={c.cookies['usid']}; usid={other.cookies['usid']}"
    assert c.request("POST", iss + "/login", form={**hidden, "username": "user7", "password": "pw-7"},
                     headers={"Cookie": two}).status == 409
    # Another flow's txn with this session: crossed.
    _, other_hidden = form_fields(other.request("GET", iss + "/login").text, 'type="password"')
    assert c.request("POST", iss + "/login", form={**other_hidden, "username": "user7", "password": "pw-7"}).status == 409
    assert c.request("POST", iss + "/login", form={**hidden, "username": "user7", "password": "pw-7"}).status == 303
    # Signed in as user7: authorize goes to consent; logging in as user8 on this session is crossed.
    assert c.request("GET", iss + "/authorize?" + urlencode(auth_params(iss))).location == iss + "/consent"
    _, hidden = form_fields(c.request("GET", iss + "/login").text, 'type="password"')
    assert c.request("POST", iss + "/login", form={**hidden, "username": "user8", "password": "pw-8"}).text == "session crossed\n"


def t_standing_banners(base):
    c = Client(base)
    expect = {"login-error-jupyterhub": ("unsecured HTTP connection", '<p class="login_error">\nInvalid username or password\n</p>'),
              "login-error-banner-role-alert": ('role="alert">Scheduled maintenance', '<div class="form-error">Invalid username or password.</div>'),
              "login-error-class-only": ('<div class="alert alert-info">', '<span class="kc-feedback-text">Invalid username or password.</span>'),
              "login-error-same-text": ('role="alert">Invalid username or password.</div>', 'role="alert">Invalid username or password.</div>')}
    for scenario, (banner, error) in expect.items():
        iss, r = authorize_get(c, base, scenario)
        page, bad = login_via_page(c, r, password="nope")
        assert banner in page.text and banner in bad.text, scenario
        assert (error in page.text) == (scenario == "login-error-same-text") and error in bad.text, (scenario, bad.text)
        action, hidden = form_fields(bad.text, 'type="password"')
        ok = c.request("POST", urljoin(page.url, action), form={**hidden, "username": "alice", "password": "wonderland"})
        assert redeem(c, iss, answer(ok.location)["code"]).status == 200, scenario


def t_login_devise(base):
    c = Client(base)
    iss, r = authorize_get(c, base, "login-devise", scope="openid")
    page = c.request("GET", urljoin(r.url, r.location))
    action, hidden = form_fields(page.text, 'type="password"')
    assert 'name="user[email]"' in page.text and hidden == {"authenticity_token": "fixture-authenticity-token"}, page.text
    url = urljoin(page.url, action)
    bad = c.request("POST", url, form={**hidden, "user[email]": "user7@fixture.test", "user[password]": "pw-8"})
    assert bad.status == 200 and "Invalid Email or password." in bad.text
    assert c.request("POST", url, form={"user[email]": "user7@fixture.test", "user[password]": "pw-7"}).status == 422
    ok = c.request("POST", url, form={**hidden, "user[email]": "user7@fixture.test", "user[password]": "pw-7", "commit": "Log in"})
    token = redeem(c, iss, answer(ok.location)["code"])
    assert token.status == 200
    payload = token.json()["id_token"].split(".")[1]
    assert json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"] == "user7"
