"""Self-test of the Okta replica (okta.md), playing Okta's own browser-side
clients, not authcode: the Sign-In Widget's Classic primary auth
(src/v1/models/PrimaryAuth.js: username, password, options, the page's
stateToken), okta-auth-js's Authentication API calls (lib/authn/api.ts,
lib/authn/util/poll.ts) and IDX calls (lib/idx/introspect.ts with
`application/ion+json; okta-version=1.0.0`, remediations with
`application/json`: lib/idx/idxState/v1/generateIdxAction.ts), and the
headless pattern of saml2aws (pkg/provider/okta/okta.go: /api/v1/authn
without a page, then sessionCookieRedirect).

    .venv/bin/python Fixtures/server/replicas/selftest_okta.py [BASE_URL]

Prints one line per check, then `N passed, M failed`; exits 1 on a failure.
"""
import json
import os
import re
import sys
from urllib.parse import urlencode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selftest_replica import Checks, Flow, totp_code, unescape_js  # noqa: E402

SEED_GOOGLE = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
SEED_VERIFY = "MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"
JSON_H = {"Content-Type": "application/json", "Accept": "application/json"}
ION = "application/ion+json; okta-version=1.0.0"
CHECKS = Checks()
check = CHECKS.register


class Okta(Flow):
    """One browser: cookie jar, the org of one scenario and run."""

    def __init__(self, base, scenario, config=None):
        super().__init__(base, scenario, config)
        self.iss = self.root + "/oauth2/default"

    def authorize(self, **extra):
        params = self.auth_params(**extra)
        return self.get(self.iss + "/v1/authorize?" + urlencode(params))

    def page_token(self, page):
        found = (re.search(r'"stateToken":"([^"]*)"', page.text)
                 or re.search(r"var stateToken = '([^']*)';", page.text))
        return unescape_js(found.group(1))

    def authn(self, body, path="/api/v1/authn", headers=JSON_H):
        return self.post_json(self.root + path, body, headers)

    def verify(self, factor, body):
        return self.post_json(factor["_links"]["verify"]["href"], body, JSON_H)

    def idx(self, path, body, ctype="application/json"):
        return self.post_json(self.root + "/idp/idx/" + path, body, {"Content-Type": ctype, "Accept": ION})

    def introspect(self, token):
        return self.idx("introspect", {"stateToken": token}, ION)

    def code_for(self, r):
        """Follow same-server redirects until the redirect_uri: its code."""
        while r.status in (301, 302, 303) and not r.location.startswith(self.redirect_uri):
            r = self.get(r.location)
        assert r.status == 302 and r.location.startswith(self.redirect_uri), (r.status, r.location, r.text[:300])
        return self.answer(r.location)

    def token(self, code):
        return self.redeem(self.iss + "/v1/token", code)


def _factor(j, factor_type, provider=None):
    return next(f for f in j["_embedded"]["factors"]
                if f["factorType"] == factor_type and provider in (None, f["provider"]))


def _names(j):
    return [r["name"] for r in j.get("remediation", {}).get("value", [])]


def _msgs(j):
    return [(m["message"], m.get("i18n", {}).get("key")) for m in j.get("messages", {}).get("value", [])]


def _field_msgs(j, remediation):
    rem = next(r for r in j["remediation"]["value"] if r["name"] == remediation)
    out = []
    for v in rem["value"]:
        for inner in [v] + v.get("form", {}).get("value", []):
            out += [(m["message"], m["i18n"]["key"]) for m in inner.get("messages", {}).get("value", [])]
    return out


# ---- Classic --------------------------------------------------------------------

@check
def classic_discovery(base):
    o = Okta(base, "okta-classic")
    r = o.get(o.iss + "/.well-known/openid-configuration")
    doc = r.json()
    assert r.status == 200 and doc["issuer"] == o.iss, r.text
    assert doc["authorization_endpoint"] == o.iss + "/v1/authorize" and doc["token_endpoint"] == o.iss + "/v1/token"


def _classic_page(o, marker="var oktaData = {", **extra):
    r = o.authorize(**extra)
    assert r.status == 302 and "/login/login.htm?fromURI=" in r.location, (r.status, r.location)
    page = o.get(r.location)
    assert page.status == 200 and marker in page.text and "<form" not in page.text, page.text[:300]
    return page, o.page_token(page)


@check
def classic_page_then_step_up(base):
    o = Okta(base, "okta-classic")
    page, token = _classic_page(o)
    assert "\\x2D" in page.text and token.count("-") >= 1 and "\\x2F" in page.text
    r = o.authn({"username": "alice", "password": "wonderland", "stateToken": token,
                 "options": {"warnBeforePasswordExpired": True, "multiOptionalFactorEnroll": True}})
    j = r.json()
    assert r.status == 200 and j["status"] == "SUCCESS" and j["sessionToken"], r.text
    assert j["_links"]["next"]["name"] == "original", j["_links"]
    r = o.get(j["_links"]["next"]["href"])
    assert r.status == 302 and "sid=" in ";".join(r.header_all("Set-Cookie")), r.header_all("Set-Cookie")
    tokens = o.token(o.code_for(r)).json()
    assert o.claims(tokens["id_token"])["sub"] == "alice" and o.claims(tokens["id_token"])["iss"] == o.iss


@check
def classic_session_token_on_authorize(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "alice", "password": "wonderland"}).json()
    assert j["status"] == "SUCCESS" and "stateToken" not in j and list(j["_links"]) == ["cancel"], j
    code = o.code_for(o.authorize(sessionToken=j["sessionToken"]))
    assert o.token(code).status == 200
    again = Okta(base, "okta-classic")
    r = again.authorize(sessionToken=j["sessionToken"])  # one-time: no session now
    assert r.status == 302 and "/login/login.htm" in r.location, r.location


@check
def classic_session_cookie_redirect(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "user42", "password": "pw-42"}).json()
    target = o.iss + "/v1/authorize?" + urlencode(o.auth_params())
    r = o.get(o.root + "/login/sessionCookieRedirect?" + urlencode(
        {"checkAccountSetupComplete": "true", "token": j["sessionToken"], "redirectUrl": target}))
    assert r.status == 302 and r.location == target, (r.status, r.location)
    sub = o.claims(o.token(o.code_for(o.get(target))).json()["id_token"])["sub"]
    assert sub == "user42", sub
    bad = o.get(o.root + "/login/sessionCookieRedirect?" + urlencode(
        {"token": "x", "redirectUrl": "http://evil.example/"}))
    assert bad.status == 403, bad.status


@check
def classic_wrong_password(base):
    o = Okta(base, "okta-classic")
    r = o.authn({"username": "alice", "password": "nope"})
    j = r.json()
    assert r.status == 401 and j["errorCode"] == "E0000004" and j["errorSummary"] == "Authentication failed", r.text
    assert sorted(j) == ["errorCauses", "errorCode", "errorId", "errorLink", "errorSummary"], j
    assert o.authn({"username": "nobody", "password": "x"}).status == 401
    hit = [h for h in o.hits() if h["path"].endswith("/api/v1/authn")][0]
    assert hit["json"]["username"] == "alice" and hit["headers"]["content-type"] == "application/json"


@check
def classic_totp(base):
    o = Okta(base, "okta-classic")
    _, token = _classic_page(o)
    j = o.authn({"username": "carol", "password": "wonderland", "stateToken": token}).json()
    assert j["status"] == "MFA_REQUIRED" and j["stateToken"] == token, j
    f = _factor(j, "token:software:totp", "GOOGLE")
    assert f["profile"]["credentialId"] == "carol" and f["_links"]["verify"]["hints"]["allow"] == ["POST"]
    r = o.verify(f, {"stateToken": token, "passCode": "000000"})
    assert r.status == 403 and r.json()["errorCode"] == "E0000068" and r.json()["errorSummary"] == "Invalid Passcode/Answer"
    assert r.json()["errorCauses"] == [{"errorSummary": "Your passcode doesn't match our records. Please try again."}]
    j = o.verify(f, {"stateToken": token, "passCode": totp_code(SEED_GOOGLE)}).json()
    assert j["status"] == "SUCCESS", j
    o.code_for(o.get(j["_links"]["next"]["href"]))


@check
def classic_two_totp_devices(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "dave", "password": "wonderland"}).json()
    kinds = sorted((f["factorType"], f["provider"]) for f in j["_embedded"]["factors"])
    assert kinds == [("token:software:totp", "GOOGLE"), ("token:software:totp", "OKTA")], kinds
    f = _factor(j, "token:software:totp", "OKTA")
    assert o.verify(f, {"stateToken": j["stateToken"], "passCode": totp_code(SEED_GOOGLE)}).status == 403
    j = o.verify(f, {"stateToken": j["stateToken"], "passCode": totp_code(SEED_VERIFY)}).json()
    o.code_for(o.authorize(sessionToken=j["sessionToken"]))


@check
def classic_push(base):
    for result, expect in (("WAITING", "WAITING"), ("REJECTED", "REJECTED"), ("TIMEOUT", "TIMEOUT")):
        o = Okta(base, "okta-classic", {"okta_push_result": result})
        j = o.authn({"username": "pat", "password": "wonderland"}).json()
        f = _factor(j, "push")
        first = o.verify(f, {"stateToken": j["stateToken"]}).json()
        assert first["status"] == "MFA_CHALLENGE" and first["factorResult"] == "WAITING", first
        assert first["_links"]["next"]["name"] == "poll" and first["_embedded"]["factor"]["factorType"] == "push"
        polled = o.post_json(first["_links"]["next"]["href"] + "?autoPush=false&rememberDevice=false",
                             {"stateToken": j["stateToken"]}, JSON_H).json()
        assert polled["status"] == "MFA_CHALLENGE" and polled["factorResult"] == expect, (result, polled)
    o = Okta(base, "okta-classic", {"okta_push_result": "APPROVED"})
    j = o.authn({"username": "pat", "password": "wonderland"}).json()
    f = _factor(j, "push")
    o.verify(f, {"stateToken": j["stateToken"]})
    done = o.verify(f, {"stateToken": j["stateToken"]}).json()
    assert done["status"] == "SUCCESS" and done["sessionToken"], done


@check
def classic_sms(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "sam", "password": "wonderland"}).json()
    f = _factor(j, "sms")
    assert f["profile"] == {"phoneNumber": "+1 XXX-XXX-0142"}, f
    sent = o.verify(f, {"stateToken": j["stateToken"]}).json()
    assert sent["status"] == "MFA_CHALLENGE" and sent["factorResult"] == "CHALLENGE", sent
    assert sent["_links"]["next"]["name"] == "verify" and sent["_links"]["resend"][0]["name"] == "sms"
    r = o.verify(f, {"stateToken": j["stateToken"], "passCode": "123456"})
    assert r.status == 403 and r.json()["errorCode"] == "E0000068"


@check
def classic_locked_user_and_lockout(base):
    o = Okta(base, "okta-classic", {"okta_lockout_threshold": 3})
    j = o.authn({"username": "lou", "password": "wonderland"}).json()
    assert j["status"] == "LOCKED_OUT" and "stateToken" not in j and j["_links"]["next"]["name"] == "unlock", j
    for _ in range(3):
        assert o.authn({"username": "alice", "password": "bad"}).status == 401
    j = o.authn({"username": "alice", "password": "wonderland"}).json()
    assert j["status"] == "LOCKED_OUT", j


@check
def classic_password_expired(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "pete", "password": "wonderland"}).json()
    assert j["status"] == "PASSWORD_EXPIRED" and j["_links"]["next"]["name"] == "changePassword", j
    assert j["_links"]["next"]["href"].endswith("/api/v1/authn/credentials/change_password")


@check
def classic_resume_cancel_and_errors(base):
    o = Okta(base, "okta-classic")
    j = o.authn({"username": "carol", "password": "wonderland"}).json()
    assert o.authn({"stateToken": j["stateToken"]}).json()["status"] == "MFA_REQUIRED"
    r = o.authn({"stateToken": "00nonsense"})
    assert r.status == 403 and r.json()["errorCode"] == "E0000011" and r.json()["errorSummary"] == "Invalid token provided"
    r = o.authn({"username": "alice"}, headers={"Content-Type": "text/plain"})
    assert r.status == 415 and r.json()["errorCode"] == "E0000012", r.text
    r = o.post_raw(o.root + "/api/v1/authn", b"{not json", JSON_H)
    assert r.status == 400 and r.json()["errorCode"] == "E0000003", r.text
    _, token = _classic_page(o)
    f = _factor(j, "token:software:totp")
    r = o.verify(f, {"stateToken": token, "passCode": "1"})  # an UNAUTHENTICATED transaction
    assert r.status == 403 and r.json()["errorCode"] == "E0000079", r.text
    assert o.authn({"stateToken": j["stateToken"]}, "/api/v1/authn/cancel").json() == {"_embedded": {}}
    assert o.authn({"stateToken": j["stateToken"]}).status == 403
    assert o.get(o.root + "/api/v1/authn").status == 405


@check
def classic_var_page_and_prompt_none(base):
    o = Okta(base, "okta-classic", {"okta_page_shape": "var"})
    r = o.authorize(prompt="none")
    assert r.status == 302 and o.answer(r.location)["error"] == "login_required", r.location
    page, token = _classic_page(o, "var stateToken = '")
    assert re.search(r"var stateToken = '[^']*\\x2D[^']*';", page.text) and "oktaData" not in page.text
    j = o.authn({"username": "alice", "password": "wonderland", "stateToken": token}).json()
    o.code_for(o.get(j["_links"]["next"]["href"]))
    o.code_for(o.authorize(prompt="none"))  # the session answers without a page


# ---- Identity Engine -----------------------------------------------------------

def _idx_start(o):
    page = o.authorize()
    assert page.status == 200 and "var oktaData = {" in page.text, (page.status, page.text[:200])
    assert {"JSESSIONID", "DT"} <= set(o.cookies), o.cookies
    r = o.introspect(o.page_token(page))
    assert r.status == 200 and r.header_all("Content-Type") == [ION], r.headers
    return r.json()


def _idx(o, path, j, body, status=200):
    r = o.idx(path, {**body, "stateHandle": j["stateHandle"]})
    assert r.status == status, (path, r.status, r.text[:400])
    return r.json()


def _idx_password(o, user):
    """identify, then the password: the step after it."""
    j = _idx(o, "identify", _idx_start(o), {"identifier": user})
    return _idx(o, "challenge/answer", j, {"credentials": {"passcode": "wonderland"}})


def _idx_finish(o, j):
    assert "success" in j and j["success"]["name"] == "success-redirect", j
    return o.token(o.code_for(o.get(j["success"]["href"])))


@check
def idx_password_then_success(base):
    o = Okta(base, "okta-idx")
    j = _idx_start(o)
    assert _names(j) == ["identify"], _names(j)
    ident = j["remediation"]["value"][0]
    assert [v["name"] for v in ident["value"]] == ["identifier", "rememberMe", "stateHandle"]
    assert ident["href"] == o.root + "/idp/idx/identify"
    j = _idx(o, "identify", j, {"identifier": "alice", "rememberMe": False})
    assert _names(j) == ["challenge-authenticator", "select-authenticator-authenticate"], _names(j)
    assert j["currentAuthenticatorEnrollment"]["value"]["key"] == "okta_password"
    bad = _idx(o, "challenge/answer", j, {"credentials": {"passcode": "nope"}}, 403)
    assert _msgs(bad) == [("Password is incorrect", "incorrectPassword")], _msgs(bad)
    j = _idx(o, "challenge/answer", bad, {"credentials": {"passcode": "wonderland"}})
    tokens = _idx_finish(o, j).json()
    assert o.claims(tokens["id_token"])["sub"] == "alice"
    hit = [h for h in o.hits() if h["path"].endswith("/idp/idx/identify")][0]
    assert hit["json"]["identifier"] == "alice" and hit["json"]["stateHandle"] == j["stateHandle"]


@check
def idx_identify_with_password(base):
    o = Okta(base, "okta-idx", {"okta_identify_password": True, "okta_success_shape": "remediation"})
    j = _idx_start(o)
    names = [v["name"] for v in j["remediation"]["value"][0]["value"]]
    assert names == ["identifier", "credentials", "rememberMe", "stateHandle"], names
    bad = _idx(o, "identify", j, {"identifier": "alice", "credentials": {"passcode": "x"}}, 401)
    assert _msgs(bad) == [("Authentication failed", "errors.E0000004")], _msgs(bad)
    j = _idx(o, "identify", j, {"identifier": "alice", "credentials": {"passcode": "wonderland"}})
    assert _names(j) == ["success-redirect"] and j["remediation"]["value"][0]["method"] == "GET", j
    o.code_for(o.get(j["remediation"]["value"][0]["href"]))


@check
def idx_totp(base):
    o = Okta(base, "okta-idx")
    j = _idx_password(o, "carol")
    assert _names(j) == ["challenge-authenticator", "select-authenticator-authenticate"], _names(j)
    assert j["currentAuthenticator"]["value"]["key"] == "google_otp", j.get("currentAuthenticator")
    bad = _idx(o, "challenge/answer", j, {"credentials": {"passcode": "000000"}}, 403)
    assert _field_msgs(bad, "challenge-authenticator") == [
        ("Your code doesn't match our records. Please try again.", "authfactor.challenge.soft_token.invalid_passcode")]
    _idx_finish(o, _idx(o, "challenge/answer", j, {"credentials": {"passcode": totp_code(SEED_GOOGLE)}}))


@check
def idx_select_second_totp(base):
    o = Okta(base, "okta-idx")
    j = _idx_password(o, "dave")
    assert _names(j) == ["select-authenticator-authenticate"], _names(j)
    options = j["remediation"]["value"][0]["value"][0]["options"]
    verify = next(opt for opt in options if opt["label"] == "Okta Verify")
    fields = {v["name"]: v.get("value") for v in verify["value"]["form"]["value"]}
    j = _idx(o, "challenge", j, {"authenticator": fields})
    assert j["currentAuthenticator"]["value"]["key"] == "okta_verify", j
    field = j["remediation"]["value"][0]["value"][0]["form"]["value"][0]["name"]
    assert field == "totp", field
    bad = _idx(o, "challenge/answer", j, {"credentials": {"totp": "000000"}}, 403)
    assert _field_msgs(bad, "challenge-authenticator") == [("Invalid code. Try again.", "api.authn.error.PASSCODE_INVALID")]
    _idx_finish(o, _idx(o, "challenge/answer", j, {"credentials": {"totp": totp_code(SEED_VERIFY)}}))


@check
def idx_push(base):
    for result in ("WAITING", "REJECTED", "TIMEOUT", "APPROVED"):
        o = Okta(base, "okta-idx", {"okta_push_result": result})
        j = _idx_password(o, "pat")
        assert _names(j) == ["authenticator-verification-data", "select-authenticator-authenticate"], _names(j)
        data = j["remediation"]["value"][0]["value"][0]["form"]["value"]
        assert [opt["value"] for opt in data[1]["options"]] == ["push"], data
        j = _idx(o, "challenge", j, {"authenticator": {"id": data[0]["value"], "methodType": "push"}})
        assert _names(j)[0] == "challenge-poll" and j["remediation"]["value"][0]["refresh"] == 4000, j
        status = {"WAITING": 200, "REJECTED": 403, "TIMEOUT": 403, "APPROVED": 200}[result]
        polled = _idx(o, "challenge/poll", j, {}, status)
        if result == "APPROVED":
            _idx_finish(o, polled)
        elif result == "WAITING":
            assert _names(polled)[0] == "challenge-poll" and "messages" not in polled
        else:
            key = {"REJECTED": "api.authn.poll.error.push_rejected", "TIMEOUT": "oktaverify.timeout"}[result]
            assert _msgs(polled)[0][1] == key, _msgs(polled)


@check
def idx_sms(base):
    o = Okta(base, "okta-idx")
    j = _idx_password(o, "sam")
    data = j["remediation"]["value"][0]["value"][0]["form"]["value"]
    assert j["currentAuthenticatorEnrollment"]["value"]["key"] == "phone_number"
    assert [opt["value"] for opt in data[1]["options"]] == ["sms", "voice"], data
    j = _idx(o, "challenge", j, {"authenticator": {"id": data[0]["value"], "methodType": "sms",
                                                   "enrollmentId": data[2]["value"]}})
    assert _names(j)[0] == "challenge-authenticator", _names(j)
    bad = _idx(o, "challenge/answer", j, {"credentials": {"passcode": "123456"}}, 403)
    assert _field_msgs(bad, "challenge-authenticator") == [("Invalid code. Try again.", "api.authn.error.PASSCODE_INVALID")]


@check
def idx_locked_unknown_and_lockout(base):
    o = Okta(base, "okta-idx", {"okta_lockout_threshold": 2})
    j = _idx_start(o)
    gone = _idx(o, "identify", j, {"identifier": "lou"}, 401)
    assert _msgs(gone) == [("Authentication failed", "errors.E0000004")] and "remediation" not in gone, gone
    expired = o.introspect(j["stateHandle"])
    assert expired.status == 401 and _msgs(expired.json())[0][1] == "idx.session.expired"
    o = Okta(base, "okta-idx", {"okta_lockout_threshold": 2})
    j = _idx_start(o)
    unknown = _idx(o, "identify", j, {"identifier": "nobody"}, 400)
    assert _msgs(unknown) == [("There is no account with the Username nobody.", "idx.unknown.user")]
    assert unknown["messages"]["value"][0]["class"] == "INFO"
    j = _idx(o, "identify", j, {"identifier": "alice"})
    for _ in range(2):
        _idx(o, "challenge/answer", j, {"credentials": {"passcode": "bad"}}, 403)
    locked = _idx(o, "challenge/answer", j, {"credentials": {"passcode": "wonderland"}}, 401)
    assert _msgs(locked) == [("Authentication failed", "errors.E0000004")], locked


@check
def idx_password_expired(base):
    o = Okta(base, "okta-idx")
    j = _idx_password(o, "pete")
    assert _names(j) == ["reenroll-authenticator"], _names(j)
    _idx_finish(o, _idx(o, "challenge/answer", j, {"credentials": {"passcode": "Brand-new-passw0rd"}}))


@check
def idx_state_machine_refusals(base):
    o = Okta(base, "okta-idx")
    j = _idx_start(o)
    early = _idx(o, "challenge/answer", j, {"credentials": {"passcode": "wonderland"}}, 403)
    assert _msgs(early) == [("You do not have permission to perform the requested action.",
                             "security.access_denied")] and _names(early) == ["identify"], early
    blank = _idx(o, "identify", j, {"identifier": " "}, 400)
    assert _field_msgs(blank, "identify") == [("This field cannot be left blank", "model.validation.field.blank")]
    r = o.idx("identify", {"identifier": "alice", "stateHandle": "02nope"})
    assert r.status == 401 and _msgs(r.json()) == [(
        "You have been logged out due to inactivity. Refresh or return to the sign in screen.", "idx.session.expired")]
    assert o.get(o.root + "/login/token/redirect?stateToken=" + j["stateHandle"]).status == 403
    assert o.idx("identify", {"identifier": "alice", "stateHandle": j["stateHandle"]}, "text/plain").status == 415
    fresh = _idx(o, "cancel", j, {})
    assert fresh["stateHandle"] != j["stateHandle"] and _names(fresh) == ["identify"]


@check
def idx_classic_api_off_and_on(base):
    o = Okta(base, "okta-idx")
    r = o.authn({"username": "alice", "password": "wonderland"})
    assert r.status == 403 and r.json()["errorCode"] == "E0000015", r.text
    o = Okta(base, "okta-idx", {"okta_classic_api": True})
    j = o.authn({"username": "alice", "password": "wonderland"}).json()
    o.code_for(o.authorize(sessionToken=j["sessionToken"]))


if __name__ == "__main__":
    sys.exit(CHECKS.main(sys.argv[1:]))
