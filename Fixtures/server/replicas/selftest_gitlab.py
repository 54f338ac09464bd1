#!/usr/bin/env python3
"""Self-test of the GitLab replica (gitlab.py), playing a browser on
GitLab's sign-in (Devise), two-factor and Doorkeeper pages, each form with
its authenticity_token.

    .venv/bin/python Fixtures/server/replicas/selftest_gitlab.py
"""
import sys
from urllib.parse import urlencode, urljoin

from selftest_webkit import Browser, answer, auth_params, forms, form_with, id_token_claims, main, redeem, text_of, totp_now

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def authorize(b, **extra):
    return b.get(b.root + "/oauth/authorize?" + urlencode(auth_params(**extra)))


def sign_in(b, login, password, page=None):
    if page is None:
        page = b.follow(authorize(b))
    form = form_with(page.text, "user[login]")
    return page, b.submit(page, form, **{"user[login]": login, "user[password]": password})


def t_alice(c, base):
    b = Browser(base, "gitlab")
    d = b.get(b.root + "/.well-known/openid-configuration").json()
    c.check("discovery: issuer <root>, /oauth/authorize, /oauth/token",
            d["issuer"] == b.root and d["token_endpoint"] == b.root + "/oauth/token")
    r = authorize(b)
    c.check("signed out: 302 <sub>/users/sign_in, session cookie _gitlab_session",
            r.status == 302 and r.location.endswith("/users/sign_in") and "_gitlab_session" in b.cookies(b.root))
    page = b.follow(r)
    form = form_with(page.text, "user[login]")
    c.check("sign-in form#new_user (data-testid sign-in-form): authenticity_token, user[login], user[password], "
            "user[remember_me] (hidden 0 + checkbox)",
            form is not None and form.attrs.get("data-testid") == "sign-in-form" and form.attrs.get("id") == "new_user"
            and form.names() == ["authenticity_token", "user[login]", "user[password]", "user[remember_me]",
                                 "user[remember_me]"] and 'name="csrf-token"' in page.text)
    bad = b.submit(page, form, authenticity_token="Zm9yZ2Vk", **{"user[login]": "alice", "user[password]": "wonderland"})
    c.check("a forged authenticity_token -> 422 'The change you requested was rejected.'",
            bad.status == 422 and "The change you requested was rejected." in bad.text)
    _, wrong = sign_in(b, "alice", "nope", page)
    c.check("wrong password -> 302 back to <sub>/users/sign_in", wrong.status == 302 and wrong.location.endswith("/users/sign_in"))
    again = b.follow(wrong)
    c.check("... whose page shows the flash-alert 'Invalid login or password.'",
            'class="gl-alert flash-alert gl-alert-danger"' in again.text and "Invalid login or password." in text_of(again.text))
    _, r = sign_in(b, "alice@example.com", "wonderland", again)
    c.check("right password (primary e-mail) -> 302 back to /oauth/authorize", r.status == 302 and "/oauth/authorize?" in r.location)
    consent = b.get(urljoin(r.url, r.location))
    allow, deny_form = forms(consent.text)[1], forms(consent.text)[0]
    c.check("Doorkeeper page: 'Authorize demo-app to use your account?', Deny (_method=delete) and Authorize forms",
            "Authorize demo-app to use your account?" in text_of(consent.text) and deny_form.data().get("_method") == "delete"
            and 'id="commit-changes"' in consent.text and allow.data().get("client_id") == "demo-app"
            and allow.data().get("code_challenge_method") == "S256")
    r = b.submit(consent, allow)
    a = answer(r)
    c.check("Authorize -> 302 to the redirect_uri with code and state", r.status == 302 and a.get("state") == "st-1"
            and "code" in a, r.location)
    t = redeem(b, b.root + "/oauth/token", a.get("code", ""))
    c.check("code redeemed: sub alice", t.status == 200 and id_token_claims(t)["sub"] == "alice", t.text[:200])
    r = authorize(b)
    c.check("authorized before, same scopes -> 302 code at once", "code" in answer(r))


def t_bob_deny_lockout(c, base):
    b = Browser(base, "gitlab")
    page, r = sign_in(b, "bob", "builder")
    form = form_with(r.text, "user[otp_attempt]")
    c.check("bob: password -> 200 two-factor form: authenticity_token, user[remember_me], user[otp_attempt], commit",
            r.status == 200 and form is not None
            and form.names() == ["authenticity_token", "user[remember_me]", "user[otp_attempt]", "commit"]
            and form.action.endswith("/users/sign_in"))
    wrong = b.submit(r, form, **{"user[otp_attempt]": "000000" if totp_now(SEED) != "000000" else "111111"})
    c.check("wrong code -> the form again with 'Invalid two-factor code.'",
            form_with(wrong.text, "user[otp_attempt]") is not None and "Invalid two-factor code." in text_of(wrong.text))
    code = totp_now(SEED)
    ok = b.submit(wrong, form_with(wrong.text, "user[otp_attempt]"), **{"user[otp_attempt]": code})
    c.check("right code (pyotp) -> 302 back to /oauth/authorize", ok.status == 302 and "/oauth/authorize?" in ok.location)
    consent = b.follow(ok)
    r = b.submit(consent, forms(consent.text)[0])
    a = answer(r)
    c.check("Deny -> error=access_denied with Doorkeeper's description",
            a.get("error") == "access_denied"
            and a.get("error_description") == "The resource owner or authorization server denied the request.")
    b2 = Browser(base, "gitlab", run=b.run)
    _, r = sign_in(b2, "bob", "builder")
    again = b2.submit(r, form_with(r.text, "user[otp_attempt]"), **{"user[otp_attempt]": code})
    c.check("the same code again (consumed time step) -> refused", "Invalid two-factor code." in text_of(again.text))
    b3 = Browser(base, "gitlab")
    _, r = sign_in(b3, "mallory", "wonderland")
    c.check("mallory (locked) -> 302 back with 'Your account is locked.'",
            "Your account is locked." in text_of(b3.follow(r).text))
    b4 = Browser(base, "gitlab")
    page = b4.follow(authorize(b4))
    for _ in range(10):
        page, r = sign_in(b4, "alice", "nope", page)
        page = b4.follow(r)
    c.check("ten wrong passwords -> 'Your account is locked.'", "Your account is locked." in text_of(page.text))
    _, r = sign_in(b4, "alice", "wonderland", page)
    c.check("... and then the right one is refused too", r.status == 302 and r.location.endswith("/users/sign_in")
            and "Your account is locked." in text_of(b4.follow(r).text))
    hits = b.hits()
    posts = [h for h in hits if h["method"] == "POST" and h["path"].endswith("/users/sign_in")]
    c.check("hits: bob's password POST and OTP POSTs, each with authenticity_token (two browsers, one run)",
            len(posts) == 5 and all("authenticity_token" in h["form"] for h in posts)
            and "user[otp_attempt]" in posts[1]["form"])


if __name__ == "__main__":
    sys.exit(main([t_alice, t_bob_deny_lockout]))
