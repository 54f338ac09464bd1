#!/usr/bin/env python3
"""Self-test of the Entra ID replica (entra.py) and of the federation to the
ADFS replica (adfs.py): plays what the converged page's script and a
headless client (Versent/saml2aws pkg/provider/aad/aad.go) send: $Config
read, GetCredentialType, the login form, SAS BeginAuth/EndAuth/ProcessAuth,
"Stay signed in?", ADFS's form and its WS-Federation answer to login.srf.

    .venv/bin/python Fixtures/server/replicas/selftest_entra.py
"""
import json
import re
import sys
from urllib.parse import urlencode, urljoin

from selftest_webkit import Browser, answer, auth_params, form_with, forms, id_token_claims, main, redeem, totp_now

SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
TENANT = "5d2c1e3f-0a4b-4c6d-8e9f-0123456789ab"


def config_of(page):
    m = re.search(r"\$Config=(\{.*?\});\n", page.text, re.S)
    return json.loads(m.group(1)) if m else {}


def start(b, **extra):
    r = b.get(f"{b.root}/{TENANT}/oauth2/v2.0/authorize?" + urlencode(auth_params(**extra)))
    return r, config_of(r)


def credential_type(b, conf, username):
    return b.request("POST", conf["urlGetCredentialType"], json_body={
        "username": username, "isOtherIdpSupported": True, "checkPhones": False, "isRemoteNGCSupported": True,
        "isCookieBannerShown": False, "isFidoSupported": False, "originalRequest": conf["sCtx"], "country": "US",
        "forceotclogin": False, "isExternalFederationDisallowed": False, "isRemoteConnectSupported": False,
        "federationFlags": 0, "isSignup": False, "flowToken": conf["sFT"], "isAccessPassSupported": True},
        headers={"canary": conf["apiCanary"], "client-request-id": conf["correlationId"],
                 "hpgact": str(conf["hpgact"]), "hpgid": str(conf["hpgid"]), "hpgrequestid": conf["sessionId"]})


def post_login(b, page, conf, username, password, **override):
    form = {"i13": "0", "login": username, "loginfmt": username, "type": "11", "LoginOptions": "3", "lrt": "",
            "lrtPartition": "", "hisRegion": "", "hisScaleUnit": "", "passwd": password, "ps": "2",
            "psRNGCDefaultType": "", "psRNGCEntropy": "", "psRNGCSLK": "", "canary": conf["canary"],
            "ctx": conf["sCtx"], "hpgrequestid": conf["sessionId"], conf["sFTName"]: conf["sFT"], "PPSX": "",
            "NewUser": "1", "FoundMSAs": "", "fspost": "0", "i21": "0", "CookieDisclosure": "0",
            "IsFidoSupported": "0", "isSignupPost": "0", "i19": "21000"}
    form.update(override)
    r = b.post(urljoin(page.url, conf["urlPost"]), form)
    return r, config_of(r)


def kmsi(b, page, conf, choice="1"):
    return b.post(urljoin(page.url, conf["urlPost"]), {conf["sFTName"]: conf["sFT"], "ctx": conf["sCtx"],
                                                        "LoginOptions": choice})


def t_managed(c, base):
    b = Browser(base, "entra")
    iss = f"{b.root}/{TENANT}/v2.0"
    d = b.get(iss + "/.well-known/openid-configuration").json()
    c.check("discovery: issuer <root>/<tenant>/v2.0, /oauth2/v2.0/authorize and token",
            d["issuer"] == iss and d["authorization_endpoint"] == f"{b.root}/{TENANT}/oauth2/v2.0/authorize")
    page, conf = start(b)
    c.check("authorize -> 200 ConvergedSignIn: no form, $Config with sFT, sCtx, canary, apiCanary, urlPost, "
            "urlGetCredentialType, sErrorCode 50058",
            page.status == 200 and not forms(page.text) and conf.get("pgid") == "ConvergedSignIn"
            and conf["sFTName"] == "flowToken" and conf["sErrorCode"] == "50058"
            and all(conf.get(k) for k in ("sFT", "sCtx", "canary", "apiCanary", "urlPost", "urlGetCredentialType")))
    c.check("the page's <noscript> refresh goes to /jsdisabled, which has no form",
            f'URL={b.root}/jsdisabled' in page.text
            and not forms(b.get(b.root + "/jsdisabled").text)
            and "block JavaScript" in b.get(b.root + "/jsdisabled").text)
    c.check("cookies esctx, buid, fpc set", {"esctx", "buid", "fpc"} <= set(b.cookies(b.root)))
    ct = credential_type(b, conf, "alice@contoso.example").json()
    c.check("GetCredentialType: managed (IfExistsResult 0, HasPassword, DomainType 3, no FederationRedirectUrl)",
            ct["IfExistsResult"] == 0 and ct["Credentials"]["HasPassword"] and ct["EstsProperties"]["DomainType"] == 3
            and "FederationRedirectUrl" not in ct["Credentials"] and ct["FlowToken"] == conf["sFT"])
    ct = b.request("POST", conf["urlGetCredentialType"], json_body={"username": "alice@contoso.example",
                   "originalRequest": conf["sCtx"], "flowToken": conf["sFT"]}, headers={"canary": "forged"}).json()
    c.check("GetCredentialType with a wrong canary header -> no verdict (ErrorHR)", "ErrorHR" in ct)
    r, conf2 = post_login(b, page, conf, "alice@contoso.example", "nope")
    c.check("wrong password -> ConvergedSignIn again, sErrorCode 50126 + its AADSTS text, a new sFT",
            conf2.get("pgid") == "ConvergedSignIn" and conf2["sErrorCode"] == "50126"
            and conf2["sErrTxt"].startswith("AADSTS50126: Error validating credentials") and conf2["sFT"] != conf["sFT"]
            and conf2["sPOST_Username"] == "alice@contoso.example")
    r, stale = post_login(b, page, conf, "alice@contoso.example", "wonderland")
    c.check("the old flowToken again -> ConvergedError 50089", stale.get("pgid") == "ConvergedError"
            and stale.get("sErrorCode") == "50089")
    r, kconf = post_login(b, r, conf2, "alice@contoso.example", "wonderland")
    c.check("right password -> KmsiInterrupt ('Stay signed in?'), urlPost /kmsi",
            kconf.get("pgid") == "KmsiInterrupt" and kconf["urlPost"].endswith("/kmsi"))
    r = kmsi(b, r, kconf, "1")
    a = answer(r)
    c.check("LoginOptions=1 -> 302 to the redirect_uri with code, state, session_state; ESTSAUTH(PERSISTENT) set",
            r.status == 302 and a.get("state") == "st-1" and "code" in a and "session_state" in a
            and {"ESTSAUTH", "ESTSAUTHPERSISTENT"} <= set(b.cookies(b.root)), r.location)
    t = redeem(b, f"{b.root}/{TENANT}/oauth2/v2.0/token", a.get("code", ""))
    c.check("code redeemed: sub alice@contoso.example, iss <root>/<tenant>/v2.0",
            t.status == 200 and id_token_claims(t)["sub"] == "alice@contoso.example" and id_token_claims(t)["iss"] == iss)
    r, _ = start(b)
    c.check("signed in (ESTSAUTH): the next authorization request -> 302 code at once", "code" in answer(r))
    r, conf = start(b, prompt="login")
    c.check("prompt=login -> the sign-in page despite the session", conf.get("pgid") == "ConvergedSignIn")
    b2 = Browser(base, "entra")
    r, _ = start(b2, prompt="none")
    c.check("prompt=none without a session -> error=login_required", answer(r).get("error") == "login_required")
    b3 = Browser(base, "entra")
    page, conf = start(b3)
    b3.jar.clear()
    r, _ = post_login(b3, page, conf, "alice@contoso.example", "wonderland")
    c.check("the login POST without the esctx cookie -> 302 /cookiesdisabled",
            r.status == 302 and r.location.endswith("/cookiesdisabled"))
    b4 = Browser(base, "entra", config={"entra_kmsi": False, "entra_error_text": "empty"})
    page, conf = start(b4, response_mode="form_post")
    r, conf2 = post_login(b4, page, conf, "alice@contoso.example", "nope")
    c.check("entra_error_text=empty: sErrorCode 50126 with an empty sErrTxt",
            conf2["sErrorCode"] == "50126" and conf2["sErrTxt"] == "")
    r, _ = post_login(b4, r, conf2, "alice@contoso.example", "wonderland")
    hidden = forms(r.text)
    c.check("no KMSI, response_mode=form_post -> 'Working...' form[name=hiddenform] with code, state, session_state",
            "<title>Working...</title>" in r.text and hidden and hidden[0].attrs.get("name") == "hiddenform"
            and set(hidden[0].data()) == {"code", "state", "session_state"})


def t_errors_and_lockout(c, base):
    b = Browser(base, "entra", config={"entra_lockout_threshold": 3})
    page, conf = start(b)
    ct = credential_type(b, conf, "nobody@contoso.example").json()
    c.check("GetCredentialType: unknown user -> IfExistsResult 1", ct["IfExistsResult"] == 1)
    r, conf = post_login(b, page, conf, "nobody@contoso.example", "x")
    c.check("unknown user -> sErrorCode 50034", conf["sErrorCode"] == "50034")
    r, conf = post_login(b, r, conf, "mallory@contoso.example", "wonderland")
    c.check("mallory (locked) -> sErrorCode 50053 + 'AADSTS50053: The account is locked…'",
            conf["sErrorCode"] == "50053" and conf["sErrTxt"].startswith("AADSTS50053: The account is locked"))
    codes = []
    for _ in range(3):
        r, conf = post_login(b, r, conf, "alice@contoso.example", "nope")
        codes.append(conf["sErrorCode"])
    c.check("smart lockout (threshold 3): 50126, 50126, then 50053", codes == ["50126", "50126", "50053"], str(codes))
    r, conf = post_login(b, r, conf, "alice@contoso.example", "wonderland")
    c.check("... then the right password is refused too (50053)", conf["sErrorCode"] == "50053")


def tfa(b, user, password):
    page, conf = start(b)
    return post_login(b, page, conf, user, password)


def sas(b, conf, method, **body):
    url = conf["urlBeginAuth"] if method == "BeginAuth" else conf["urlEndAuth"]
    return b.request("POST", url, json_body=dict(body, Method=method)).json()


def t_second_factors(c, base):
    b = Browser(base, "entra")
    page, conf = tfa(b, "bob@contoso.example", "builder")
    proofs = [(p["authMethodId"], p["isDefault"]) for p in conf.get("arrUserProofs", [])]
    c.check("bob: ConvergedTFA with arrUserProofs PhoneAppOTP (default) and PhoneAppNotification, urlBeginAuth, "
            "urlEndAuth, urlPost ProcessAuth",
            conf.get("pgid") == "ConvergedTFA" and proofs == [("PhoneAppOTP", True), ("PhoneAppNotification", False)]
            and conf["urlPost"].endswith("/common/SAS/ProcessAuth"))
    begin = sas(b, conf, "BeginAuth", AuthMethodId="PhoneAppOTP", ctx=conf["sCtx"], flowToken=conf["sFT"])
    c.check("BeginAuth -> Success, a new FlowToken, Ctx, SessionId", begin["Success"] and begin["FlowToken"] != conf["sFT"]
            and begin["Ctx"] == conf["sCtx"] and begin["SessionId"])
    wrong = sas(b, conf, "EndAuth", AuthMethodId="PhoneAppOTP", Ctx=begin["Ctx"], FlowToken=begin["FlowToken"],
                SessionId=begin["SessionId"], AdditionalAuthData="000000" if totp_now(SEED) != "000000" else "111111")
    c.check("EndAuth with a wrong code -> Success false, ResultValue OathCodeIncorrect",
            not wrong["Success"] and wrong["ResultValue"] == "OathCodeIncorrect")
    early = b.post(conf["urlPost"], {conf["sFTName"]: wrong["FlowToken"], "request": wrong["Ctx"],
                                     "mfaAuthMethod": "PhoneAppOTP", "login": conf["sPOST_Username"]})
    c.check("ProcessAuth before a successful EndAuth -> ConvergedTFA with 50074", config_of(early).get("sErrorCode") == "50074")
    conf = config_of(early)
    begin = sas(b, conf, "BeginAuth", AuthMethodId="PhoneAppOTP", ctx=conf["sCtx"], flowToken=conf["sFT"])
    ok = sas(b, conf, "EndAuth", AuthMethodId="PhoneAppOTP", Ctx=begin["Ctx"], FlowToken=begin["FlowToken"],
             SessionId=begin["SessionId"], AdditionalAuthData=totp_now(SEED))
    c.check("EndAuth with the TOTP code (pyotp) -> Success, ResultValue Success", ok["Success"] and ok["ResultValue"] == "Success")
    r = b.post(conf["urlPost"], {conf["sFTName"]: ok["FlowToken"], "request": ok["Ctx"], "mfaAuthMethod": "PhoneAppOTP",
                                 "rememberMFA": "false", "login": conf["sPOST_Username"], "canary": conf["canary"],
                                 "hpgrequestid": conf["sessionId"]})
    kconf = config_of(r)
    c.check("ProcessAuth -> KmsiInterrupt", kconf.get("pgid") == "KmsiInterrupt")
    r = kmsi(b, r, kconf, "3")
    c.check("LoginOptions=3 -> code; ESTSAUTH without ESTSAUTHPERSISTENT",
            "code" in answer(r) and "ESTSAUTHPERSISTENT" not in b.cookies(b.root))
    b2 = Browser(base, "entra")
    page, conf = tfa(b2, "carol@contoso.example", "wonderland")
    begin = sas(b2, conf, "BeginAuth", AuthMethodId="PhoneAppNotification", ctx=conf["sCtx"], flowToken=conf["sFT"])
    c.check("carol (push only): BeginAuth PhoneAppNotification -> Success, Entropy (number to match)",
            begin["Success"] and begin["Entropy"] == 42)
    results, token = [], begin["FlowToken"]
    for _ in range(3):
        end = sas(b2, conf, "EndAuth", AuthMethodId="PhoneAppNotification", Ctx=begin["Ctx"], FlowToken=token,
                  SessionId=begin["SessionId"])
        results.append((end["ResultValue"], end["Retry"]))
        token = end["FlowToken"]
    c.check("EndAuth polls: pending (Retry) twice, then PhoneAppNoResponse (nobody approves)",
            results == [("AuthenticationPending", True), ("AuthenticationPending", True), ("PhoneAppNoResponse", False)],
            str(results))
    b3 = Browser(base, "entra")
    page, conf = tfa(b3, "dave@contoso.example", "wonderland")
    c.check("dave (SMS only): arrUserProofs [OneWaySMS]", [p["authMethodId"] for p in conf["arrUserProofs"]] == ["OneWaySMS"])
    begin = sas(b3, conf, "BeginAuth", AuthMethodId="OneWaySMS", ctx=conf["sCtx"], flowToken=conf["sFT"])
    end = sas(b3, conf, "EndAuth", AuthMethodId="OneWaySMS", Ctx=begin["Ctx"], FlowToken=begin["FlowToken"],
              SessionId=begin["SessionId"], AdditionalAuthData="123456")
    c.check("EndAuth for SMS -> SMSAuthFailedWrongCodeEntered (no code can be read)",
            end["ResultValue"] == "SMSAuthFailedWrongCodeEntered")
    other = sas(b3, conf, "BeginAuth", AuthMethodId="PhoneAppOTP", ctx=conf["sCtx"], flowToken=end["FlowToken"])
    c.check("BeginAuth for a method the user has not -> Success false", not other["Success"])
    b4 = Browser(base, "entra")
    page, conf = tfa(b4, "frank@contoso.example", "wonderland")
    c.check("frank: ConvergedProofUpRedirect with urlSkipMfaRegistration",
            conf.get("pgid") == "ConvergedProofUpRedirect" and conf.get("urlSkipMfaRegistration"))
    r = b4.get(conf["urlSkipMfaRegistration"])
    c.check("skipping -> KmsiInterrupt", config_of(r).get("pgid") == "KmsiInterrupt")


def t_federated(c, base):
    b = Browser(base, "entra")
    page, conf = start(b)
    ct = credential_type(b, conf, "erin@fabrikam.example").json()
    fed = ct["Credentials"].get("FederationRedirectUrl", "")
    c.check("GetCredentialType: federated (DomainType 4, FederationRedirectUrl to /adfs/ls/ with wa, wtrealm, wctx)",
            ct["EstsProperties"]["DomainType"] == 4 and "/adfs/adfs/ls/?" in fed and "wa=wsignin1.0" in fed
            and "wtrealm=urn%3afederation%3aMicrosoftOnline" in fed and "estsrequest%3D" in fed, fed)
    adfs_page = b.get(fed)
    form = form_with(adfs_page.text, "Password")
    c.check("ADFS: form#loginForm with UserName (prefilled), Password, AuthMethod=FormsAuthentication",
            form is not None and form.attrs.get("id") == "loginForm" and form.data().get("UserName") == "erin@fabrikam.example"
            and form.data().get("AuthMethod") == "FormsAuthentication" and "client-request-id=" in form.action)
    wrong = b.submit(adfs_page, form, Password="nope")
    c.check("ADFS wrong password -> #errorText 'Incorrect user ID or password. Type the correct user ID and password, "
            "and try again.'", 'id="errorText"' in wrong.text and
            "Incorrect user ID or password. Type the correct user ID and password, and try again." in wrong.text)
    r = b.submit(adfs_page, form, Password="wonderland")
    c.check("ADFS right password -> 302 back to /adfs/ls/ with the MSISAuth cookie",
            r.status == 302 and "/adfs/ls/?" in r.location and "MSISAuth" in b.cookies(b.root))
    working = b.get(urljoin(r.url, r.location))
    hidden = forms(working.text)
    c.check("-> 'Working...' form posting wa=wsignin1.0, wresult, wctx to Entra's login.srf",
            hidden and hidden[0].action.endswith("/entra/login.srf")
            and set(hidden[0].data()) == {"wa", "wresult", "wctx"} and "<saml:Assertion" in hidden[0].data()["wresult"])
    data = hidden[0].data()
    tampered = b.post(hidden[0].action, dict(data, wresult=data["wresult"].replace("erin@", "eve@")))
    c.check("a changed wresult -> ConvergedError 50008", config_of(tampered).get("sErrorCode") == "50008")
    r = b.submit(working, hidden[0])
    kconf = config_of(r)
    c.check("login.srf -> KmsiInterrupt", kconf.get("pgid") == "KmsiInterrupt")
    r = kmsi(b, r, kconf)
    t = redeem(b, f"{b.root}/{TENANT}/oauth2/v2.0/token", answer(r).get("code", ""))
    c.check("-> code; its token's sub is erin@fabrikam.example", t.status == 200
            and id_token_claims(t)["sub"] == "erin@fabrikam.example")
    hits = b.hits()
    paths = [h["path"].split(b.run)[1] for h in hits if h["method"] == "POST"]
    c.check("hits: GetCredentialType, two ADFS POSTs, login.srf (tampered, then right), kmsi, in order",
            paths[:1] == ["/entra/common/GetCredentialType"] and paths[1:3] == ["/adfs/adfs/ls/"] * 2
            and paths[3:6] == ["/entra/login.srf", "/entra/login.srf", "/entra/kmsi"], str(paths))


if __name__ == "__main__":
    sys.exit(main([t_managed, t_errors_and_lockout, t_second_factors, t_federated]))
