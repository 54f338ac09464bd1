"""Self-test of the Auth0 replica (auth0.md), playing Auth0's own browser
side, not authcode: Universal Login's server-rendered forms submitted as a
browser does (the page's primary form with its hidden `state`, the
browser-capability fields, `action`: auth0-acul-js utils/form-handler.ts,
utils/browser-capabilities.ts; the push page polled with `Accept:
application/json`: utils/polling-control.ts), and Classic Login as Lock and
auth0.js do it (src/web-auth/hosted-pages.js, username-password.js: the
config from `window.atob`, `/usernamepassword/login` JSON with the
`Auth0-Client` header, the answered form submitted as it is) or as saml2aws
(pkg/provider/auth0/auth0.go) does headless.

    .venv/bin/python Fixtures/server/replicas/selftest_auth0.py [BASE_URL]
"""
import base64
import json
import os
import re
import sys
from urllib.parse import urlencode, urljoin

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selftest_replica import Checks, Flow, forms, totp_code  # noqa: E402

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
CAPS = {"js-available": "true", "is-brave": "false", "webauthn-available": "true",
        "webauthn-platform-available": "false", "allow-passkeys": "false"}
AUTH0_CLIENT = base64.b64encode(b'{"name":"lock.js","version":"11.35.0","lib_version":{"raw":"9.23.0"}}').decode()
CHECKS = Checks()
check = CHECKS.register


class Auth0(Flow):
    def __init__(self, base, scenario, config=None):
        super().__init__(base, scenario, config)
        self.iss = self.root + "/"

    def authorize(self, **extra):
        return self.get(self.root + "/authorize?" + urlencode(self.auth_params(**extra)))

    def follow(self, r):
        """Same-tenant redirects, up to the next page or the redirect_uri."""
        while r.status in (301, 302, 303) and not r.location.startswith(self.redirect_uri):
            r = self.get(urljoin(r.url, r.location))
        return r

    def submit(self, page, fields, action="default"):
        """The page's primary form, with `fields` and the pressed button."""
        form = next(f for f in forms(page.text) if f["attrs"].get("data-form-primary") == "true")
        data = {**form["fields"], **CAPS, **fields, "action": action}
        return self.post_form(urljoin(page.url, form["action"] or page.url), data)

    def code_of(self, r):
        r = self.follow(r)
        assert r.status == 302 and r.location.startswith(self.redirect_uri), (r.status, r.location, r.text[:300])
        return self.answer(r.location)

    def token(self, code):
        return self.redeem(self.root + "/oauth/token", code)


def _error(page, field):
    m = re.search(rf'id="error-element-{field}" class="ulp-input-error-message" data-error-code="([^"]*)">([^<]*)<',
                  page.text)
    return (m.group(1), m.group(2)) if m else None


def _alert(page):
    m = re.search(r'id="prompt-alert" class="ulp-alert" data-error-code="([^"]*)"><p>([^<]*)<', page.text)
    return (m.group(1), m.group(2)) if m else None


def _ul_login(a, user, password="wonderland"):
    page = a.follow(a.authorize())
    assert page.status == 200 and "/u/login/identifier?state=" in page.url, (page.status, page.url)
    page = a.follow(a.submit(page, {"username": user}))
    assert "/u/login/password?state=" in page.url, page.url
    return a.submit(page, {"password": password}), page


# ---- Universal Login ------------------------------------------------------------

@check
def ul_discovery(base):
    a = Auth0(base, "auth0-ul")
    doc = a.get(a.root + "/.well-known/openid-configuration").json()
    assert doc["issuer"] == a.root + "/" and doc["token_endpoint"] == a.root + "/oauth/token", doc


@check
def ul_identifier_first(base):
    a = Auth0(base, "auth0-ul")
    r = a.authorize()
    assert r.status == 302 and r.location == a.root + "/u/login/identifier?state=" + r.location.split("=", 1)[1]
    assert {"auth0", "auth0_compat", "did", "did_compat"} <= set(a.cookies), a.cookies
    page = a.follow(r)
    form = next(f for f in forms(page.text) if f["attrs"].get("data-form-primary") == "true")
    assert form["method"] == "POST" and set(form["fields"]) >= {"state", "username", *CAPS}, form
    assert form["buttons"] == [("action", "default")], form["buttons"]
    r, _ = _ul_login(a, "alice")
    assert r.status == 302 and "/authorize/resume?state=" in r.location, (r.status, r.location)
    tokens = a.token(a.code_of(r)).json()
    assert a.claims(tokens["id_token"])["sub"] == "alice" and a.claims(tokens["id_token"])["iss"] == a.iss
    hit = [h for h in a.hits() if h["path"].endswith("/u/login/password") and h["method"] == "POST"][0]
    assert hit["form"]["username"] == "alice" and hit["form"]["action"] == "default"
    again = a.authorize()  # the tenant's session answers at once
    assert again.status == 302 and again.location.startswith(a.redirect_uri), again.location


@check
def ul_wrong_password_then_right(base):
    a = Auth0(base, "auth0-ul")
    r, page = _ul_login(a, "alice", "nope")
    assert r.status == 400 and _error(r, "password") == ("wrong-credentials", "Wrong username or password"), r.text
    r.url = page.url
    a.code_of(a.submit(r, {"password": "wonderland"}))


@check
def ul_combined_prompt(base):
    a = Auth0(base, "auth0-ul", {"auth0_identifier_first": False})
    page = a.follow(a.authorize())
    assert page.url.startswith(a.root + "/u/login?state="), page.url
    bad = a.submit(page, {"username": "user7", "password": "pw-8"})
    assert bad.status == 400 and _error(bad, "password")[0] == "wrong-credentials"
    bad.url = page.url
    sub = a.claims(a.token(a.code_of(a.submit(bad, {"username": "user7", "password": "pw-7"}))).json()["id_token"])["sub"]
    assert sub == "user7", sub


@check
def ul_otp(base):
    a = Auth0(base, "auth0-ul")
    r, _ = _ul_login(a, "carol")
    page = a.follow(r)
    assert "/u/mfa-otp-challenge?state=" in page.url and 'autocomplete="one-time-code"' in page.text, page.url
    bad = a.submit(page, {"code": "000000", "rememberBrowser": "true"})
    assert bad.status == 400 and _error(bad, "code") == ("invalid-code", "The code you entered is invalid")
    bad.url = page.url
    a.code_of(a.submit(bad, {"code": totp_code(SEED)}))


@check
def ul_push(base):
    for result in ("WAITING", "REJECTED", "APPROVED"):
        a = Auth0(base, "auth0-ul", {"auth0_push_result": result})
        page = a.follow(_ul_login(a, "pat")[0])
        assert "/u/mfa-push-challenge-push?state=" in page.url, page.url
        polled = a.get(page.url, {"Accept": "application/json"}).json()
        assert polled == {"completed": result != "WAITING"}, polled
        r = a.submit(page, {}, "continue")
        if result == "APPROVED":
            a.code_of(r)
        else:
            code = "transaction-pending" if result == "WAITING" else "transaction-rejected"
            assert r.status == 400 and _alert(r)[0] == code, r.text[-500:]


@check
def ul_sms(base):
    a = Auth0(base, "auth0-ul")
    page = a.follow(_ul_login(a, "sam")[0])
    assert "/u/mfa-sms-challenge?state=" in page.url, page.url
    bad = a.submit(page, {"code": "123456"})
    assert bad.status == 400 and _error(bad, "code")[0] == "invalid-code"


@check
def ul_blocked_and_brute_force(base):
    a = Auth0(base, "auth0-ul", {"auth0_lockout_threshold": 3})
    r, _ = _ul_login(a, "lou")
    assert r.status == 400 and _error(r, "password") == ("user-blocked", "The user is blocked."), r.text
    a2 = Auth0(base, "auth0-ul", {"auth0_lockout_threshold": 3})
    r, page = _ul_login(a2, "alice", "bad")
    for _ in range(2):
        r.url = page.url
        r = a2.submit(r, {"password": "bad"})
    r.url = page.url
    r = a2.submit(r, {"password": "wonderland"})
    assert r.status == 400 and _error(r, "password") == (
        "user-blocked", "Your account has been blocked after multiple consecutive login attempts."), r.text


@check
def ul_consent(base):
    for decision in ("deny", "accept"):
        a = Auth0(base, "auth0-ul", {"auth0_consent": True})
        page = a.follow(_ul_login(a, "alice")[0])
        assert "/u/consent?state=" in page.url and "<li>openid</li>" in page.text, page.url
        r = a.follow(a.submit(page, {}, decision))
        got = a.answer(r.location)
        if decision == "deny":
            assert got["error"] == "access_denied" and got["error_description"] == "User did not authorize the request"
        else:
            a.token(got)


@check
def ul_state_is_checked(base):
    a = Auth0(base, "auth0-ul")
    page = a.follow(a.authorize())
    tx_state = page.url.split("state=", 1)[1]
    r = a.post_form(page.url, {"state": "hKFo2SBforged", "username": "alice", "action": "default"})
    assert r.status == 400 and "invalid_request" in r.text
    r = a.get(a.root + "/u/mfa-otp-challenge?state=" + tx_state)  # not there yet: back to the prompt
    assert r.status == 302 and r.location.endswith("/u/login/identifier?state=" + tx_state), r.location
    other = Auth0(base, "auth0-ul")  # another browser (no `auth0` cookie of this one)
    other.run = a.run
    assert other.get(page.url).status == 400
    assert a.get(a.root + "/authorize/resume?state=" + tx_state).status == 400
    blank = a.submit(page, {"username": " "})
    assert blank.status == 400 and _error(blank, "username") == ("required", "Username is required")
    fresh = Auth0(base, "auth0-ul")
    r = fresh.authorize(prompt="none")
    assert fresh.answer(r.location)["error"] == "login_required", r.location


# ---- Classic Login (Lock) ----------------------------------------------------------

def _lock_page(a, shape="nested"):
    r = a.authorize()
    assert r.status == 302 and r.location.startswith(a.root + "/login?state="), r.location
    page = a.get(r.location)
    blob = re.search(r"window\.atob\('([^']*)'\)", page.text).group(1)
    cfg = json.loads(base64.b64decode(blob))
    params = cfg if shape == "flat" else cfg["extraParams"]
    assert params["state"] and params["_csrf"] and params["_intstate"] == "deprecated", cfg
    return cfg, params


def _usernamepassword(a, cfg, params, username, password, **extra):
    body = {"client_id": cfg["clientID"], "redirect_uri": cfg["callbackURL"], "tenant": cfg["auth0Tenant"],
            "response_type": "code", "scope": params["scope"], "_csrf": params["_csrf"],
            "state": params["state"], "_intstate": "deprecated", "connection": "Username-Password-Authentication",
            "username": username, "password": password, **extra}
    return a.post_json(a.root + "/usernamepassword/login", body,
                       {"Content-Type": "application/json", "Auth0-Client": AUTH0_CLIENT, "Origin": a.base})


def _callback(a, r):
    form = forms(r.text)[0]
    assert form["attrs"]["name"] == "hiddenform" and form["action"] == a.root + "/login/callback", form
    assert set(form["fields"]) == {"wa", "wresult", "wctx"} and form["fields"]["wa"] == "wsignin1.0", form
    return a.post_form(form["action"], form["fields"]), form


@check
def classic_lock_happy_path(base):
    a = Auth0(base, "auth0-classic")
    cfg, params = _lock_page(a)
    js = a.get(cfg["clientConfigurationBaseUrl"] + "client/" + cfg["clientID"] + ".js").text
    setc = json.loads(re.search(r"Auth0\.setClient\((.*)\);", js).group(1))
    assert setc["strategies"][0]["connections"][0]["name"] == "Username-Password-Authentication", setc
    r = _usernamepassword(a, cfg, params, "alice", "wonderland")
    assert r.status == 200 and r.header_all("Content-Type")[0].startswith("text/html"), r.text
    r, form = _callback(a, r)
    assert json.loads(form["fields"]["wctx"])["state"] == params["state"]
    assert r.status == 302 and "/authorize/resume?state=" in r.location, (r.status, r.location)
    a.token(a.code_of(r))
    hit = [h for h in a.hits() if h["path"].endswith("/usernamepassword/login")][0]
    assert hit["json"]["username"] == "alice" and hit["headers"]["auth0-client"] == AUTH0_CLIENT
    replay = a.post_form(form["action"], form["fields"])
    assert replay.status == 400, replay.status


@check
def classic_flat_config_saml2aws_style(base):
    a = Auth0(base, "auth0-classic", {"auth0_lock_config": "flat"})
    cfg, params = _lock_page(a, "flat")
    r = _usernamepassword(a, cfg, params, "user9", "pw-9", popup_options={}, sso=True, protocol="oauth2")
    sub = a.claims(a.token(a.code_of(_callback(a, r)[0])).json()["id_token"])["sub"]
    assert sub == "user9", sub


@check
def classic_wrong_password(base):
    for status in (401, 400):
        a = Auth0(base, "auth0-classic", {"auth0_wrong_password_status": status})
        cfg, params = _lock_page(a)
        r = _usernamepassword(a, cfg, params, "alice", "nope")
        assert r.status == status and r.json() == {"name": "ValidationError", "code": "invalid_user_password",
                                                   "description": "Wrong email or password.",
                                                   "statusCode": status}, r.text


@check
def classic_csrf_and_state(base):
    a = Auth0(base, "auth0-classic")
    cfg, params = _lock_page(a)
    r = _usernamepassword(a, cfg, {**params, "_csrf": "forged"}, "alice", "wonderland")
    assert r.status == 403 and r.json()["code"] == "invalid_csrf", r.text
    del a.cookies["_csrf"]
    assert _usernamepassword(a, cfg, params, "alice", "wonderland").status == 403
    r = _usernamepassword(a, cfg, {**params, "state": "hKFo2SBnope"}, "alice", "wonderland")
    assert r.status == 400 and r.json()["code"] == "invalid_request", r.text
    bad = a.post_form(a.root + "/login/callback", {"wa": "wsignin1.0", "wresult": "x", "wctx": "{}"})
    assert bad.status == 400


@check
def classic_mfa_code(base):
    a = Auth0(base, "auth0-classic")
    cfg, params = _lock_page(a)
    r = _usernamepassword(a, cfg, params, "carol", "wonderland")
    assert r.status == 401 and r.json()["code"] == "a0.mfa_required", r.text
    r = _usernamepassword(a, cfg, params, "carol", "wonderland", mfa_code="000000")
    assert r.status == 401 and r.json()["code"] == "a0.mfa_invalid_code", r.text
    r = _usernamepassword(a, cfg, params, "carol", "wonderland", mfa_code=totp_code(SEED))
    a.code_of(_callback(a, r)[0])


@check
def classic_blocked_and_brute_force(base):
    a = Auth0(base, "auth0-classic", {"auth0_lockout_threshold": 2})
    cfg, params = _lock_page(a)
    r = _usernamepassword(a, cfg, params, "lou", "wonderland")
    assert r.status == 401 and r.json()["code"] == "unauthorized" and r.json()["description"] == "user is blocked"
    for _ in range(2):
        assert _usernamepassword(a, cfg, params, "alice", "bad").status == 401
    r = _usernamepassword(a, cfg, params, "alice", "wonderland")
    assert r.status == 429 and r.json()["code"] == "too_many_attempts", r.text


if __name__ == "__main__":
    sys.exit(CHECKS.main(sys.argv[1:]))
