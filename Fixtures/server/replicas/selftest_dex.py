#!/usr/bin/env python3
"""Self-test of the Dex replica (dex.py), playing what a browser does with
Dex's pages (web/templates/*.html: plain forms, no script needed): pick a
connector, post `login`/`password`, the TOTP form, the approval form.

    .venv/bin/python Fixtures/server/replicas/selftest_dex.py
"""
import sys
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

from selftest_webkit import (REDIRECT_URI, Browser, answer, auth_params, form_with, forms, id_token_claims, main,
                             redeem, text_of, totp_now)

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def start(b, **extra):
    return b.get(b.root + "/dex/auth?" + urlencode(auth_params(**extra)))


def choose(b, page, name):
    link = next(u for u in _links(page.text) if f"/dex/auth/{name}?" in u)
    return b.get(urljoin(page.url, link))


def _links(html):
    import re
    return [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]+)"', html)]


def login(b, connector, user, password, scenario_main=True):
    page = start(b)
    r = choose(b, page, connector)
    form_page = b.follow(r)
    form = form_with(form_page.text, "password")
    return form_page, b.submit(form_page, form, login=user, password=password)


def t_discovery(c, base):
    b = Browser(base, "dex")
    d = b.get(b.root + "/dex/.well-known/openid-configuration").json()
    c.check("discovery: issuer <root>/dex, /auth and /token under it",
            d["issuer"] == b.root + "/dex" and d["authorization_endpoint"] == b.root + "/dex/auth"
            and d["token_endpoint"] == b.root + "/dex/token")


def t_main_local_alice(c, base):
    b = Browser(base, "dex")
    page = start(b)
    c.check("connector list: two .dex-btn-provider links (Email, LDAP)",
            page.status == 200 and page.text.count("dex-btn-provider") == 2 and "Log in with Email" in page.text)
    r = choose(b, page, "local")
    loc = urlsplit(r.location or "")
    q = dict(parse_qsl(loc.query))
    c.check("connector link -> 302 /dex/auth/local/login?state=<request id>&back=",
            r.status == 302 and loc.path.endswith("/dex/auth/local/login") and len(q.get("state", "")) == 25
            and "back" in q, r.location)
    form_page = b.get(urljoin(r.url, r.location))
    form = form_with(form_page.text, "password")
    c.check("password page: #login, #password, #submit-login, label 'Email Address'",
            form is not None and form.names()[:2] == ["login", "password"] and 'id="submit-login"' in form_page.text
            and ">Email Address<" in form_page.text)
    wrong = b.submit(form_page, form, login="alice@example.com", password="nope")
    c.check("wrong password -> 401, div#login-error 'Invalid Email Address and password.'",
            wrong.status == 401 and 'id="login-error"' in wrong.text
            and "Invalid Email Address and password." in text_of(wrong.text) and 'value="alice@example.com"' in wrong.text)
    r = b.submit(form_page, form, login="alice@example.com", password="wonderland")
    c.check("right password -> 303 /dex/auth?req=&hmac= (the dispatcher)",
            r.status == 303 and "/dex/auth?" in r.location and "hmac=" in r.location, r.location)
    r = b.get(urljoin(r.url, r.location))
    c.check("dispatcher -> 303 /dex/approval?req=&hmac=", r.status == 303 and "/dex/approval?" in r.location)
    approval = b.get(urljoin(r.url, r.location))
    c.check("approval page: Grant Access, scope 'email' described, two forms (approve, rejected)",
            "Grant Access" in approval.text and "View your email address" in approval.text
            and [f.data().get("approval") for f in forms(approval.text)] == ["approve", "rejected"])
    tampered = b.post(approval.url.replace("hmac=", "hmac=x"), {"req": forms(approval.text)[0].data()["req"],
                                                                "approval": "approve"})
    c.check("approval with a wrong hmac -> 401 Unauthorized request",
            tampered.status == 401 and "Unauthorized request" in tampered.text)
    r = b.submit(approval, forms(approval.text)[0])
    c.check("approve -> 303 /dex/auth (approved verifier)", r.status == 303 and "/dex/auth?" in r.location)
    r = b.get(urljoin(r.url, r.location))
    a = answer(r)
    c.check("-> 303 to the redirect_uri with code and state", r.status == 303 and a.get("state") == "st-1"
            and "code" in a, r.location)
    t = redeem(b, b.root + "/dex/token", a.get("code", ""))
    c.check("code redeemed at /dex/token: sub alice@example.com, iss <root>/dex",
            t.status == 200 and id_token_claims(t)["sub"] == "alice@example.com"
            and id_token_claims(t)["iss"] == b.root + "/dex", t.text[:200])
    # The consent is remembered: the next login goes from the dispatcher to the code.
    _, r = login(b, "local", "alice@example.com", "wonderland")
    r = b.follow(r)
    c.check("second login, consent remembered -> code without the approval page", "code" in answer(r), r.location)
    hits = b.hits()
    posts = [h for h in hits if h["method"] == "POST" and h["path"].endswith("/dex/auth/local/login")]
    c.check("hits record each password POST's fields (login, password)",
            len(posts) == 3 and all(set(h["form"]) == {"login", "password"} for h in posts))


def t_main_ldap_totp(c, base):
    b = Browser(base, "dex")
    _, r = login(b, "ldap", "bob", "builder")
    r = b.get(urljoin(r.url, r.location))
    c.check("bob (ldap): dispatcher -> 303 /dex/mfa", r.status == 303 and "/dex/mfa?" in r.location, r.location)
    r = b.get(urljoin(r.url, r.location))
    c.check("/dex/mfa -> 303 /dex/mfa/totp?authenticator=totp&req=&hmac=",
            r.status == 303 and "/dex/mfa/totp?" in r.location and "authenticator=totp" in r.location)
    page = b.get(urljoin(r.url, r.location))
    form = form_with(page.text, "totp")
    c.check("TOTP page: field totp, 'Enter the code from your authenticator app.', no QR code",
            form is not None and "Enter the code from your authenticator app." in page.text and "QR code" not in page.text)
    wrong = b.submit(page, form, totp="000000" if totp_now(SEED) != "000000" else "111111")
    c.check("wrong code -> 'Invalid code. Please try again.'",
            'id="login-error"' in wrong.text and "Invalid code. Please try again." in text_of(wrong.text))
    code = totp_now(SEED)
    r = b.submit(page, form, totp=code)
    c.check("right code (pyotp) -> 303 /dex/auth (continue)", r.status == 303 and "/dex/auth?" in r.location)
    r = b.follow(r)
    c.check("then the approval page", "Grant Access" in r.text)
    r = b.follow(b.submit(r, forms(r.text)[0]))
    c.check("approve -> code for bob", "code" in answer(r))
    # Single use: the same code in a new login is refused.
    b2 = Browser(base, "dex", run=b.run)
    _, r = login(b2, "ldap", "bob", "builder")
    page = b2.follow(r)
    again = b2.submit(page, form_with(page.text, "totp"), totp=code)
    c.check("the same code again (another login) -> refused (last step kept)",
            "Invalid code. Please try again." in text_of(again.text))
    # alice has no TOTP yet: the first login enrols one (QR code only).
    b3 = Browser(base, "dex")
    _, r = login(b3, "ldap", "alice", "wonderland")
    page = b3.follow(r)
    c.check("alice (ldap, no TOTP yet) -> enrolment page with a QR code",
            "Scan the QR code below using your authenticator app, then enter the code." in page.text
            and 'alt="QR code"' in page.text and form_with(page.text, "totp") is not None)


def t_main_refusals(c, base):
    b = Browser(base, "dex")
    _, r = login(b, "local", "alice@example.com", "wonderland")
    approval = b.follow(r)
    r = b.submit(approval, forms(approval.text)[1])
    c.check("Cancel (approval=rejected) -> 500 'Approval rejected.'",
            r.status == 500 and "Approval rejected." in r.text and "Internal Server Error" in r.text)
    r = b.get(b.root + "/dex/auth/local/login?state=nosuchrequest")
    c.check("unknown state -> 400 'Requested resource does not exist.'",
            r.status == 400 and "Requested resource does not exist." in r.text)
    r = start(b, connector_id="ldap")
    c.check("connector_id=ldap -> 302 /dex/auth/ldap", r.status == 302 and "/dex/auth/ldap?" in r.location)
    b2 = Browser(base, "dex", config={"dex_connectors": ["local"]})
    r = start(b2)
    c.check("one connector -> 302 straight to it", r.status == 302 and "/dex/auth/local?" in r.location)
    r = b.get(b.root + "/dex/auth/local?client_id=nobody&redirect_uri=" + REDIRECT_URI + "&response_type=code")
    c.check("unknown client -> 400, no redirect", r.status == 400 and r.location is None)


def t_v2(c, base):
    b = Browser(base, "dex-v2")
    form_page, r = login(b, "local", "alice@example.com", "wonderland")
    c.check("v2: password page without 'Remember me'", "remember_me" not in form_page.text)
    c.check("v2: right password -> 303 /dex/approval?req=&hmac= (no dispatcher)",
            r.status == 303 and "/dex/approval?" in r.location, r.location)
    approval = b.get(urljoin(r.url, r.location))
    r = b.submit(approval, forms(approval.text)[0])
    c.check("v2: approve -> 303 straight to the redirect_uri", r.status == 303 and "code" in answer(r), r.location)
    t = redeem(b, b.root + "/dex/token", answer(r)["code"])
    c.check("v2: code redeemed", t.status == 200)
    _, r = login(b, "ldap", "bob", "builder")
    c.check("v2: bob (ldap) gets no TOTP step", r.status == 303 and "/dex/approval?" in r.location)
    b2 = Browser(base, "dex-v2", config={"dex_skip_approval": True})
    _, r = login(b2, "local", "alice@example.com", "wonderland")
    c.check("v2 + skipApprovalScreen: password -> 303 code", r.status == 303 and "code" in answer(r), r.location)
    _, wrong = login(b, "ldap", "bob", "nope")
    c.check("v2: wrong password -> 401 'Invalid Username and password.'",
            wrong.status == 401 and "Invalid Username and password." in text_of(wrong.text))


if __name__ == "__main__":
    sys.exit(main([t_discovery, t_main_local_alice, t_main_ldap_totp, t_main_refusals, t_v2]))
