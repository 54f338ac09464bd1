#!/usr/bin/env python3
"""Self-test of the Zitadel login v1 replica (zitadel.py), playing a browser
on Zitadel's pages: login name, password, the OTP form, each with its
gorilla.csrf.Token; then the callback to the redirect_uri.

    .venv/bin/python Fixtures/server/replicas/selftest_zitadel.py
"""
import sys
from urllib.parse import urlencode, urljoin

from selftest_webkit import Browser, answer, auth_params, form_with, id_token_claims, main, redeem, text_of, totp_now

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def start(b, **extra):
    r = b.get(b.root + "/oauth/v2/authorize?" + urlencode(auth_params(**extra)))
    return r, b.follow(r)


def to_password(b, user):
    _, page = start(b)
    return b.submit(page, form_with(page.text, "loginName"), loginName=user)


def t_alice(c, base):
    b = Browser(base, "zitadel")
    d = b.get(b.root + "/.well-known/openid-configuration").json()
    c.check("discovery: issuer <root>, /oauth/v2/authorize, /oauth/v2/token",
            d["issuer"] == b.root and d["token_endpoint"] == b.root + "/oauth/v2/token")
    r, page = start(b)
    c.check("authorize -> 302 /ui/login/login?authRequestID=V2_…, cookie zitadel.useragent",
            r.status == 302 and "/ui/login/login?authRequestID=V2_" in r.location and "zitadel.useragent" in b.cookies(b.root))
    form = form_with(page.text, "loginName")
    c.check("login page: 'Welcome back!', form -> /ui/login/loginname: gorilla.csrf.Token, authRequestID, loginName; "
            "cookie zitadel.login.csrf",
            "Welcome back!" in page.text and form.action.endswith("/ui/login/loginname")
            and form.names()[:3] == ["gorilla.csrf.Token", "authRequestID", "loginName"]
            and "zitadel.login.csrf" in b.cookies(b.root))
    bad = b.submit(page, form, loginName="alice", **{"gorilla__csrf__Token": "Zm9yZ2Vk"})
    c.check("a forged gorilla.csrf.Token -> 403 'Forbidden - CSRF token invalid'",
            bad.status == 403 and bad.text.strip() == "Forbidden - CSRF token invalid")
    unknown = b.submit(page, form, loginName="nobody")
    c.check("unknown login name -> the login page again, p.lgn-error-message 'User could not be found (…)'",
            'class="lgn-error-message"' in unknown.text and "User could not be found (" in text_of(unknown.text))
    pw = b.submit(page, form, loginName="alice")
    pform = form_with(pw.text, "password")
    c.check("login name -> password page (200, same response): gorilla.csrf.Token, authRequestID, loginName, password",
            pw.status == 200 and pform.action.endswith("/ui/login/password")
            and pform.names() == ["gorilla.csrf.Token", "authRequestID", "loginName", "password"])
    wrong = b.submit(pw, pform, password="nope")
    c.check("wrong password -> 'Password is invalid (…)'", "Password is invalid (" in text_of(wrong.text))
    r = b.submit(pw, pform, password="wonderland")
    c.check("right password -> 302 /oauth/v2/authorize/callback?id=V2_…",
            r.status == 302 and "/oauth/v2/authorize/callback?id=V2_" in r.location, r.location)
    r = b.get(urljoin(r.url, r.location))
    a = answer(r)
    c.check("callback -> 302 to the redirect_uri with code and state", a.get("state") == "st-1" and "code" in a)
    t = redeem(b, b.root + "/oauth/v2/token", a.get("code", ""))
    c.check("code redeemed: sub alice", t.status == 200 and id_token_claims(t)["sub"] == "alice")
    other = Browser(base, "zitadel", run=b.run)
    r, page = start(b)
    req_id = form_with(page.text, "loginName").data()["authRequestID"]
    stranger = other.get(b.root + "/ui/login/login?authRequestID=" + req_id)
    c.check("the request opened by another user agent -> 'User Agent does not correspond (…)'",
            "User Agent does not correspond (" in text_of(stranger.text))


def t_bob_locked(c, base):
    b = Browser(base, "zitadel")
    pw = to_password(b, "bob")
    mfa = b.submit(pw, form_with(pw.text, "password"), password="builder")
    form = form_with(mfa.text, "code")
    c.check("bob: password -> 'Verify 2-Factor' form -> /ui/login/mfa/verify: authRequestID, mfaType, code",
            "Verify 2-Factor" in mfa.text and form.action.endswith("/ui/login/mfa/verify")
            and form.names() == ["gorilla.csrf.Token", "authRequestID", "mfaType", "code"])
    r = b.get(b.root + "/oauth/v2/authorize/callback?id=" + form.data()["authRequestID"])
    c.check("the callback before the second factor -> 400, no code", r.status == 400 and not answer(r))
    wrong = b.submit(mfa, form, code="000000" if totp_now(SEED) != "000000" else "111111")
    c.check("wrong code -> 'Invalid code (…)'", "Invalid code (" in text_of(wrong.text))
    r = b.follow(b.submit(mfa, form, code=totp_now(SEED)))
    c.check("right code (pyotp) -> callback -> code", "code" in answer(r))
    pw = to_password(b, "mallory")
    r = b.submit(pw, form_with(pw.text, "password"), password="wonderland")
    c.check("mallory (locked) -> 'User is locked (…)'", "User is locked (" in text_of(r.text))
    b2 = Browser(base, "zitadel", config={"zitadel_max_password_attempts": 2})
    pw = to_password(b2, "alice")
    form = form_with(pw.text, "password")
    b2.submit(pw, form, password="x")
    r = b2.submit(pw, form, password="y")
    c.check("lockout policy of 2: the second wrong password -> 'Password is invalid and user is locked, contact your "
            "administrator.'", "Password is invalid and user is locked, contact your administrator." in text_of(r.text))
    r = b2.submit(pw, form, password="wonderland")
    c.check("... then even the right one -> 'User is locked (…)'", "User is locked (" in text_of(r.text))
    posts = [h for h in b.hits() if h["method"] == "POST"]
    c.check("hits: loginname, password, mfa/verify POSTs carry gorilla.csrf.Token and authRequestID",
            posts and all({"gorilla.csrf.Token", "authRequestID"} <= set(h["form"]) for h in posts))


if __name__ == "__main__":
    sys.exit(main([t_alice, t_bob_locked]))
