#!/usr/bin/env python3
"""Self-test of the Gitea replica (gitea.py), playing a browser on Gitea's
server-rendered pages: the authorization request, the sign-in form (with
_csrf), the passcode form, the "Authorize Application" grant form.

    .venv/bin/python Fixtures/server/replicas/selftest_gitea.py
"""
import sys
from urllib.parse import urlencode, urljoin

from selftest_webkit import Browser, answer, auth_params, form_with, id_token_claims, main, redeem, text_of, totp_now

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def authorize(b, **extra):
    return b.get(b.root + "/login/oauth/authorize?" + urlencode(auth_params(**extra)))


def sign_in(b, user, password):
    r = authorize(b)
    page = b.follow(r)
    form = form_with(page.text, "user_name")
    return page, b.submit(page, form, user_name=user, password=password)


def t_alice(c, base):
    b = Browser(base, "gitea")
    d = b.get(b.root + "/.well-known/openid-configuration").json()
    c.check("discovery: issuer = AppURL with its trailing slash, /login/oauth/authorize and access_token",
            d["issuer"] == b.root + "/" and d["authorization_endpoint"] == b.root + "/login/oauth/authorize"
            and d["token_endpoint"] == b.root + "/login/oauth/access_token")
    r = authorize(b)
    c.check("signed out: 303 <sub>/user/login, cookie redirect_to, session cookie i_like_gitea",
            r.status == 303 and r.location.endswith("/user/login") and "redirect_to" in b.cookies(b.root)
            and "i_like_gitea" in b.cookies(b.root), r.location)
    page = b.follow(r)
    form = form_with(page.text, "user_name")
    c.check("sign-in form: _csrf, user_name, password, remember; cookie _csrf = the field",
            form is not None and form.names() == ["_csrf", "user_name", "password", "remember"]
            and b.cookies(b.root).get("_csrf") == form.data()["_csrf"])
    bad = b.submit(page, form, _csrf="forged", user_name="alice", password="wonderland")
    c.check("a wrong _csrf -> 400 'Invalid CSRF token.'", bad.status == 400 and bad.text.strip() == "Invalid CSRF token.")
    wrong = b.submit(page, form, user_name="alice", password="nope")
    c.check("wrong password -> 200, flash-error 'Username or password is incorrect.'",
            wrong.status == 200 and 'class="ui negative message flash-message flash-error"' in wrong.text
            and "Username or password is incorrect." in text_of(wrong.text))
    r = b.submit(page, form, user_name="alice@example.com", password="wonderland")
    c.check("right password (by e-mail) -> 303 back to the authorization URL (redirect_to)",
            r.status == 303 and "/login/oauth/authorize?" in r.location, r.location)
    grant = b.get(urljoin(r.url, r.location))
    gform = form_with(grant.text, "client_id")
    c.check("grant page: 'Authorize \"demo-app\" to access your account?', button#authorize-app granted=true, no _csrf",
            'Authorize "demo-app" to access your account?' in text_of(grant.text) and 'id="authorize-app"' in grant.text
            and gform is not None and "_csrf" not in gform.names())
    mismatch = b.submit(grant, gform, granted="true", state="other")
    c.check("grant with another state than the session's -> 400", mismatch.status == 400)
    r = b.submit(grant, gform, granted="true")
    a = answer(r)
    c.check("Authorize Application -> 303 to the redirect_uri with code and state",
            r.status == 303 and a.get("state") == "st-1" and "code" in a, r.location)
    t = redeem(b, b.root + "/login/oauth/access_token", a.get("code", ""))
    c.check("code redeemed: sub alice, iss the AppURL", t.status == 200 and id_token_claims(t)["sub"] == "alice"
            and id_token_claims(t)["iss"] == b.root + "/", t.text[:200])
    r = authorize(b)
    c.check("signed in and granted: the next authorization request -> 303 code at once", "code" in answer(r))
    r = authorize(b, scope="openid email read:user")
    c.check("a wider scope -> the grant page again", r.status == 200 and 'id="authorize-app"' in r.text)


def t_bob_and_refusals(c, base):
    b = Browser(base, "gitea")
    page, r = sign_in(b, "bob", "builder")
    c.check("bob: password -> 303 <sub>/user/two_factor", r.status == 303 and r.location.endswith("/user/two_factor"))
    tf = b.get(urljoin(r.url, r.location))
    form = form_with(tf.text, "passcode")
    c.check("passcode form: _csrf, passcode", form is not None and form.names() == ["_csrf", "passcode"])
    wrong = b.submit(tf, form, passcode="000000" if totp_now(SEED) != "000000" else "111111")
    c.check("wrong passcode -> 'Your passcode is incorrect. If you misplaced your device, use your scratch code to sign in.'",
            "Your passcode is incorrect. If you misplaced your device, use your scratch code to sign in."
            in text_of(wrong.text))
    code = totp_now(SEED)
    r = b.submit(tf, form, passcode=code)
    c.check("right passcode (pyotp) -> 303 back to the authorization URL", r.status == 303
            and "/login/oauth/authorize?" in r.location)
    grant = b.get(urljoin(r.url, r.location))
    r = b.submit(grant, form_with(grant.text, "client_id"), granted="false")
    a = answer(r)
    c.check("Cancel (granted=false) -> error=access_denied to the redirect_uri", a.get("error") == "access_denied", r.location)
    b2 = Browser(base, "gitea", run=b.run)
    _, r = sign_in(b2, "bob", "builder")
    tf = b2.follow(r)
    again = b2.submit(tf, form_with(tf.text, "passcode"), passcode=code)
    c.check("the last used passcode again -> refused", "Your passcode is incorrect." in text_of(again.text))
    b3 = Browser(base, "gitea")
    _, r = sign_in(b3, "mallory", "wonderland")
    c.check("mallory (prohibited) -> 'Sign in Prohibited' page",
            r.status == 200 and "Your account is prohibited from signing in, please contact your site administrator."
            in text_of(r.text))
    b4 = Browser(base, "gitea")
    r = b4.get(b4.root + "/user/two_factor")
    c.check("two_factor without a 2FA session -> 500", r.status == 500)
    hits = b.hits()
    login_posts = [h for h in hits if h["method"] == "POST" and h["path"].endswith("/user/login")]
    c.check("hits: the sign-in POST carried _csrf, user_name, password",
            login_posts and set(login_posts[0]["form"]) >= {"_csrf", "user_name", "password"})


def t_grant_csrf(c, base):
    b = Browser(base, "gitea", config={"gitea_grant_csrf": True})
    _, r = sign_in(b, "alice", "wonderland")
    grant = b.get(urljoin(r.url, r.location))
    form = form_with(grant.text, "client_id")
    c.check("gitea_grant_csrf: the grant form carries _csrf", "_csrf" in form.names())
    bad = b.submit(grant, form, _csrf="forged", granted="true")
    c.check("gitea_grant_csrf: a forged _csrf -> 400", bad.status == 400)
    r = b.submit(grant, form, granted="true")
    c.check("gitea_grant_csrf: with it -> code", "code" in answer(r))


if __name__ == "__main__":
    sys.exit(main([t_alice, t_bob_and_refusals, t_grant_csrf]))
