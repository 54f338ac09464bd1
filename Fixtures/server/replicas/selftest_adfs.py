#!/usr/bin/env python3
"""Self-test of the AD FS replica (adfs.py) as a standalone OpenID Connect
provider (/adfs/oauth2/authorize/) and as a WS-Federation IdP: the forms
sign-in page, the Azure MFA adapter's code page, the MSISAuth session.
(The federation from Entra is in selftest_entra.py.)

    .venv/bin/python Fixtures/server/replicas/selftest_adfs.py
"""
import sys
from urllib.parse import urlencode, urljoin

from selftest_webkit import Browser, answer, auth_params, form_with, forms, id_token_claims, main, redeem, totp_now

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
WRONG = "Incorrect user ID or password. Type the correct user ID and password, and try again."


def start(b, **extra):
    return b.get(b.root + "/adfs/oauth2/authorize/?" + urlencode(auth_params(**extra)))


def t_oidc(c, base):
    b = Browser(base, "adfs")
    d = b.get(b.root + "/adfs/.well-known/openid-configuration").json()
    c.check("discovery: issuer <root>/adfs, /adfs/oauth2/authorize/ and /adfs/oauth2/token/",
            d["issuer"] == b.root + "/adfs" and d["authorization_endpoint"] == b.root + "/adfs/oauth2/authorize/"
            and d["token_endpoint"] == b.root + "/adfs/oauth2/token/")
    page = start(b)
    form = form_with(page.text, "Password")
    c.check("authorize -> 200 login page: form#loginForm posting to the same URL + client-request-id; UserName, "
            "Password, Kmsi, AuthMethod", page.status == 200 and form.attrs.get("id") == "loginForm"
            and "/adfs/oauth2/authorize/?" in form.action and "client-request-id=" in form.action
            and form.names() == ["UserName", "Password", "Kmsi", "AuthMethod"])
    c.check("the page shows #noScript 'JavaScript required' (hidden by its script)", "JavaScript required" in page.text)
    wrong = b.submit(page, form, UserName="erin@fabrikam.example", Password="nope")
    c.check("wrong password -> 200, span#errorText (2019) with the AD FS text",
            wrong.status == 200 and f'<span id="errorText" for="" aria-live="assertive" role="alert">{WRONG}</span>' in wrong.text)
    unknown = b.submit(page, form, UserName="nobody@fabrikam.example", Password="x")
    locked = b.submit(page, form, UserName="mallory@fabrikam.example", Password="wonderland")
    c.check("unknown user and locked account -> the same text", WRONG in unknown.text and WRONG in locked.text)
    other = b.submit(page, form, UserName="erin@fabrikam.example", Password="wonderland", AuthMethod="CertificateAuthentication")
    c.check("another AuthMethod -> the form again, no session", "MSISAuth" not in b.cookies(b.root)
            and form_with(other.text, "Password") is not None)
    r = b.submit(page, form, UserName="FABRIKAM\\erin", Password="wonderland")
    c.check("right password (down-level FABRIKAM\\erin) -> 302 back to the authorize URL, cookie MSISAuth",
            r.status == 302 and "/adfs/oauth2/authorize/?" in r.location and "MSISAuth" in b.cookies(b.root))
    r = b.get(urljoin(r.url, r.location))
    a = answer(r)
    c.check("-> 302 to the redirect_uri with code and state", a.get("state") == "st-1" and "code" in a, r.location)
    t = redeem(b, b.root + "/adfs/oauth2/token/", a.get("code", ""))
    c.check("code redeemed: sub erin@fabrikam.example, iss <root>/adfs",
            t.status == 200 and id_token_claims(t)["sub"] == "erin@fabrikam.example"
            and id_token_claims(t)["iss"] == b.root + "/adfs")
    c.check("signed in (MSISAuth): the next authorization request -> code at once", "code" in answer(start(b)))


def t_mfa_and_theme(c, base):
    b = Browser(base, "adfs", config={"adfs_theme": "2016"})
    page = start(b)
    form = form_with(page.text, "Password")
    wrong = b.submit(page, form, UserName="bob@fabrikam.example", Password="nope")
    c.check("adfs_theme 2016: the error in label#errorText", f'<label id="errorText" for="">{WRONG}</label>' in wrong.text)
    mfa = b.submit(page, form, UserName="bob@fabrikam.example", Password="builder")
    mform = form_with(mfa.text, "VerificationCode")
    c.check("bob: the MFA adapter page: AuthMethod=AzureMfaAuthentication, Context, VerificationCode",
            mform is not None and mform.data().get("AuthMethod") == "AzureMfaAuthentication"
            and mform.data().get("Context") and "/adfs/oauth2/authorize/?" in mform.action)
    bad = b.submit(mfa, mform, VerificationCode="000000" if totp_now(SEED) != "000000" else "111111")
    c.check("wrong code -> the page again with #errorText", 'id="errorText"' in bad.text
            and "The verification code you entered is not valid." in bad.text)
    r = b.submit(mfa, mform, VerificationCode=totp_now(SEED))
    c.check("right code (pyotp) -> 302 with MSISAuth", r.status == 302 and "MSISAuth" in b.cookies(b.root))
    c.check("-> code", "code" in answer(b.get(urljoin(r.url, r.location))))
    r = b.get(b.root + "/adfs/ls/?wa=wsignin1.0&wtrealm=urn:other")
    c.check("WS-Fed for an unknown relying party -> 400 'An error occurred.'", r.status == 400 and "An error occurred." in r.text)
    r = b.get(b.root + "/adfs/ls/?wa=wsignin1.0&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx=abc")
    hidden = forms(r.text)
    c.check("WS-Fed with a session -> 'Working...' form (wa, wresult, wctx echoed) and MSIS* cookies",
            hidden and hidden[0].data().get("wctx") == "abc" and {"MSISAuthenticated", "MSISLoopDetectionCookie",
                                                                    "MSISSignout"} <= set(b.cookies(b.root)))


if __name__ == "__main__":
    sys.exit(main([t_oidc, t_mfa_and_theme]))
