"""Checks of the Keycloak replica without WebAuthn: password, username
first, OTP (one and two devices), the session checks (stale code, page
expired, cookie not found, restart, timeout), brute force, required
actions, consent, Kerberos, the v2 and Keycloakify themes."""
import re
from urllib.parse import urljoin

import selftest_keycloak_browser as kb
from selftest_keycloak_support import (RUN, SEED_PHONE, SEED_TABLET, Browser, config, hits,
                                       other_code)
from selftest_support import Client, totp_now

INVALID = "Invalid username or password."


def t_discovery(base):
    b = Browser(base, "keycloak")
    doc = b.get(b.iss + "/.well-known/openid-configuration").json()
    assert doc["issuer"] == b.iss
    assert doc["authorization_endpoint"] == b.iss + "/protocol/openid-connect/auth"
    assert doc["token_endpoint"] == b.iss + "/protocol/openid-connect/token"
    assert "S256" in doc["code_challenge_methods_supported"]


def t_password_login_v1(base):
    b = Browser(base, "keycloak")
    page = b.authorize()
    assert page.status == 200 and 'class="login-pf"' in page.text and kb.has_id(page.text, "kc-page-title")
    names = {c.split("=")[0] for c in page.header_all("Set-Cookie")}
    assert {"AUTH_SESSION_ID", "KC_RESTART", "KC_AUTH_SESSION"} <= names, names
    f = kb.form(page.text, "kc-form-login")
    assert "/login-actions/authenticate?session_code=" in f["action"] and "&tab_id=" in f["action"]
    assert [x["name"] for x in f["fields"]] == ["username", "password", "credentialId"]
    tokens = b.assert_logged_in(b.submit(page, "kc-form-login", username="alice", password="wonderland"))
    assert tokens["token_type"] == "Bearer"


def t_wrong_password_v1(base):
    b = Browser(base, "keycloak")
    r = b.login("alice", "not-her-password")
    assert r.status == 200 and kb.text(r.text, "input-error") == INVALID
    assert "pf-c-alert" not in r.text, "login.ftl shows a field error, no alert"
    assert kb.form(r.text, "kc-form-login")["fields"][0]["value"] == "alice"
    r = b.submit(r, "kc-form-login", username="nobody", password="x")
    assert kb.text(r.text, "input-error") == INVALID
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_disabled_user(base):
    r = Browser(base, "keycloak").login("disabled", "disabled-pw")
    assert "Account is disabled, contact your administrator." in r.text and "kc-feedback-text" in r.text


def t_stale_session_code(base):
    b = Browser(base, "keycloak")
    page = b.authorize()
    stale = urljoin(page.url, kb.form(page.text, "kc-form-login")["action"])
    again = b.submit(page, "kc-form-login", username="alice", password="wrong")
    r = b.post(stale, {"username": "alice", "password": "wonderland"})
    assert r.status == 302 and "session_code" not in r.location and "execution=" in r.location, r.location
    r = b.follow(r)
    assert "Action expired. Please continue with login now." in r.text
    # The code is used once; until then a page view shows the same one (getOrGenerateCode).
    assert kb.form(again.text, "kc-form-login")["action"] == kb.form(r.text, "kc-form-login")["action"]
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_page_expired(base):
    b = Browser(base, "keycloak")
    page = b.authorize()
    action = urljoin(page.url, kb.form(page.text, "kc-form-login")["action"])
    other = re.sub(r"execution=[^&]+", "execution=00000000-0000-0000-0000-000000000000", action)
    r = b.post(other.replace("session_code=", "session_code=x"), {"username": "alice"})
    assert r.status == 200 and kb.text(r.text, "kc-page-title") == "Page has expired"
    assert kb.has_id(r.text, "loginRestartLink") and kb.has_id(r.text, "loginContinueLink")


def t_cookie_not_found(base):
    b = Browser(base, "keycloak")
    page = b.authorize()
    action = urljoin(page.url, kb.form(page.text, "kc-form-login")["action"])
    r = Client(base).request("POST", action, form={"username": "alice", "password": "wonderland"})
    assert r.status == 400, r.status
    assert kb.text(r.text, "kc-error-message") == "Cookie not found. Please make sure cookies are enabled in your browser."


def t_restart_from_kc_restart_cookie(base):
    b = Browser(base, "keycloak")
    page = b.authorize()
    del b.c.cookies["AUTH_SESSION_ID"]
    r = b.post(urljoin(page.url, kb.form(page.text, "kc-form-login")["action"]), {"username": "alice"})
    assert r.status == 302 and "/login-actions/authenticate?client_id=demo-app" in r.location, r.location
    r = b.follow(r)
    assert "Your login attempt timed out.  Login will start from the beginning." in r.text
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_login_timeout(base):
    run = RUN + "-timeout"
    b = Browser(base, "keycloak", run)
    page = b.authorize()
    config(base, run, {"time_offset": 3600})
    r = b.submit(page, "kc-form-login", username="alice", password="wonderland")
    assert "Your login attempt timed out.  Login will start from the beginning." in r.text
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_restart_link(base):
    b = Browser(base, "keycloak-username-first")
    r = b.submit(b.authorize(), "kc-form-login", username="alice")
    restart = re.search(r'id="reset-login" href="([^"]+)"', r.text).group(1).replace("&amp;", "&")
    r = b.follow(b.get(urljoin(r.url, restart)))
    assert kb.form(r.text, "kc-form-login") and not kb.has_id(r.text, "kc-attempted-username")


def t_username_first(base):
    b = Browser(base, "keycloak-username-first")
    page = b.authorize()
    assert [x["name"] for x in kb.form(page.text, "kc-form-login")["fields"]] == ["username"]
    r = b.submit(page, "kc-form-login", username="nobody")
    assert kb.text(r.text, "input-error") == "Invalid username or email."
    r = b.submit(r, "kc-form-login", username="alice")
    assert kb.text(r.text, "kc-attempted-username") == "alice" and kb.has_id(r.text, "reset-login")
    r = b.submit(r, "kc-form-login", password="wrong")
    assert kb.text(r.text, "input-error-password") == "Invalid password."
    b.assert_logged_in(b.submit(r, "kc-form-login", password="wonderland"))


def t_otp_one_device(base):
    b = Browser(base, "keycloak")
    r = b.login("carol", "carol-pw")
    f = kb.form(r.text, "kc-otp-login-form")
    assert [x["name"] for x in f["fields"]] == ["otp"], "one device: no choice"
    r = b.submit(r, "kc-otp-login-form", otp=other_code(totp_now(SEED_PHONE)))
    assert kb.text(r.text, "input-error-otp-code") == "Invalid authenticator code."
    b.assert_logged_in(b.otp(r, SEED_PHONE))


def t_otp_code_not_reused(base):
    code = totp_now(SEED_PHONE)
    b = Browser(base, "keycloak", RUN + "-reuse")
    b.assert_logged_in(b.submit(b.login("carol", "carol-pw"), "kc-otp-login-form", otp=code))
    b2 = Browser(base, "keycloak", RUN + "-reuse")
    r = b2.submit(b2.login("carol", "carol-pw"), "kc-otp-login-form", otp=code)
    assert kb.text(r.text, "input-error-otp-code") == "Invalid authenticator code."


def t_otp_two_devices_v1(base):
    b = Browser(base, "keycloak")
    r = b.login("dave", "dave-pw")
    radios = [x for x in kb.form(r.text, "kc-otp-login-form")["fields"] if x["name"] == "selectedCredentialId"]
    assert len(radios) == 2 and radios[0]["checked"] and kb.text(r.text, "kc-otp-login-form").count("Tablet") == 1
    r = b.submit(r, "kc-otp-login-form", otp=totp_now(SEED_TABLET))
    assert kb.text(r.text, "input-error-otp-code") == "Invalid authenticator code.", "Tablet's code for Phone"
    b.assert_logged_in(b.submit(r, "kc-otp-login-form", selectedCredentialId=radios[1]["value"],
                                otp=totp_now(SEED_TABLET)))


def t_v2_theme(base):
    b = Browser(base, "keycloak-v2")
    page = b.authorize()
    assert 'id="keycloak-bg"' in page.text and "pf-v5-c-login" in page.text
    r = b.submit(page, "kc-form-login", username="alice", password="wrong")
    assert kb.text(r.text, "input-error-username") == INVALID and "kc-feedback-text" in r.text
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_v2_otp_two_devices(base):
    b = Browser(base, "keycloak-v2")
    r = b.login("dave", "dave-pw")
    f = kb.form(r.text, "kc-otp-login-form")
    hidden = next(x for x in f["fields"] if x["name"] == "selectedCredentialId")
    assert hidden["type"] == "hidden" and kb.has_id(r.text, "kc-otp-credential-1")
    tablet = re.search(r"toggleOTP\(1, '([^']+)'\)", r.text).group(1)
    r = b.submit(r, "kc-otp-login-form", otp="12345x")
    assert kb.text(r.text, "input-error-otp") == "Invalid authenticator code."
    b.assert_logged_in(b.submit(r, "kc-otp-login-form", selectedCredentialId=tablet, otp=totp_now(SEED_TABLET)))


def t_brute_force_lockout(base):
    run = RUN + "-brute"
    b = Browser(base, "keycloak-bruteforce", run)
    r = b.authorize()
    for _ in range(3):
        r = b.submit(r, "kc-form-login", username="carol", password="wrong")
    r = b.submit(r, "kc-form-login", username="carol", password="carol-pw")
    assert r.status == 200 and kb.text(r.text, "input-error") == INVALID, "locked: the right password is refused"
    config(base, run, {"transparent_user_message": True})
    r = b.submit(r, "kc-form-login", username="carol", password="carol-pw")
    assert kb.text(r.text, "input-error") == "Account is temporarily disabled; contact your administrator or retry later."
    r = b.submit(r, "kc-form-login", username="locked", password="locked-pw")
    assert kb.text(r.text, "input-error") == "Account is temporarily disabled; contact your administrator or retry later."
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_required_action_terms(base):
    b = Browser(base, "keycloak", RUN + "-terms")
    r = b.submit(b.authorize(), "kc-form-login", username="terms", password="terms-pw")
    assert kb.text(r.text, "kc-page-title") == "Terms and Conditions" and "required-action?session_code=" in r.text
    f = kb.forms(r.text)[0]
    assert f["buttons"] == [("accept", "Accept"), ("cancel", "Decline")]
    b.assert_logged_in(b.follow(b.post(urljoin(r.url, f["action"]), {"accept": "Accept"})))
    b2 = Browser(base, "keycloak", RUN + "-terms-cancel")
    r = b2.login("terms", "terms-pw")
    r = b2.post(urljoin(r.url, kb.forms(r.text)[0]["action"]), {"cancel": "Decline"})
    assert b2.answer(r)["error"] == "access_denied"


def t_required_action_update_password(base):
    b = Browser(base, "keycloak", RUN + "-newpass")
    r = b.login("newpass", "newpass-pw")
    assert kb.text(r.text, "kc-page-title") == "Update password"
    assert "You need to change your password to activate your account." in r.text
    r = b.submit(r, "kc-passwd-update-form", **{"password-new": "n3w", "password-confirm": "other"})
    assert kb.text(r.text, "input-error-password-confirm") == "Passwords don't match."
    b.assert_logged_in(b.submit(r, "kc-passwd-update-form", **{"password-new": "n3w", "password-confirm": "n3w"}))
    b.assert_logged_in(Browser(base, "keycloak", RUN + "-newpass").login("newpass", "n3w"))


def t_required_action_update_profile(base):
    b = Browser(base, "keycloak", RUN + "-profile")
    r = b.login("profile", "profile-pw")
    assert kb.text(r.text, "kc-page-title") == "Update Account Information"
    r = b.submit(r, "kc-update-profile-form", firstName="", lastName="")
    assert kb.text(r.text, "input-error-firstName") == "Please specify first name."
    assert kb.text(r.text, "input-error-lastName") == "Please specify last name."
    b.assert_logged_in(b.submit(r, "kc-update-profile-form", firstName="Pro", lastName="File"))


def t_required_action_verify_email(base):
    b = Browser(base, "keycloak")
    r = b.login("verify", "verify-pw")
    assert kb.text(r.text, "kc-page-title") == "Email verification" and "verify@example.com" in r.text
    assert not kb.forms(r.text)
    again = b.follow(b.get(urljoin(r.url, re.search(r'<a href="([^"]+)">Click here', r.text).group(1).replace("&amp;", "&"))))
    assert again.status == 200 and kb.text(again.text, "kc-page-title") == "Email verification"


def t_required_action_configure_totp(base):
    b = Browser(base, "keycloak", RUN + "-otpsetup")
    r = b.login("otpsetup", "otpsetup-pw")
    assert kb.text(r.text, "kc-page-title") == "Mobile Authenticator Setup" and kb.has_id(r.text, "kc-totp-secret-qr-code")
    manual = re.search(r'href="([^"]+)" id="mode-manual"', r.text).group(1).replace("&amp;", "&")
    r = b.follow(b.get(urljoin(r.url, manual)))
    seed = kb.text(r.text, "kc-totp-secret-key").replace(" ", "")
    r = b.submit(r, "kc-totp-settings-form", totp="000000" if totp_now(seed) != "000000" else "111111")
    assert kb.text(r.text, "input-error-otp-code") == "Invalid authenticator code."
    b.assert_logged_in(b.submit(r, "kc-totp-settings-form", totp=totp_now(seed), userLabel="Phone"))
    b2 = Browser(base, "keycloak", RUN + "-otpsetup")
    r = b2.login("otpsetup", "otpsetup-pw")
    assert kb.form(r.text, "kc-otp-login-form"), "the new device is asked for"


def t_consent(base):
    b = Browser(base, "keycloak-consent")
    r = b.authorize()
    r = b.post(urljoin(r.url, kb.form(r.text, "kc-form-login")["action"]), {"username": "alice", "password": "wonderland"})
    assert r.status == 302 and "required-action?execution=OAUTH_GRANT" in r.location, r.location
    r = b.follow(r)
    assert kb.text(r.text, "kc-page-title") == "Grant Access to demo-app"
    assert "User profile" in r.text and "Email address" in r.text
    f = kb.forms(r.text)[0]
    assert "/login-actions/consent?client_id=demo-app" in f["action"] and f["fields"][0]["name"] == "code"
    b.assert_logged_in(b.follow(b.post(urljoin(r.url, f["action"]), {"code": f["fields"][0]["value"], "accept": "Yes"})))
    b.assert_logged_in(b.follow(b.authorize()))   # SSO, consent remembered
    b2 = Browser(base, "keycloak-consent", RUN + "-deny")
    r = b2.login("alice", "wonderland")
    f = kb.forms(r.text)[0]
    r = b2.post(urljoin(r.url, f["action"]), {"code": f["fields"][0]["value"], "cancel": "No"})
    assert b2.answer(r)["error"] == "access_denied"


def t_kerberos(base):
    b = Browser(base, "keycloak-kerberos")
    r = b.authorize()
    assert r.status == 401 and dict((k.lower(), v) for k, v in r.headers)["www-authenticate"] == "Negotiate"
    f = kb.forms(r.text)[0]
    assert f["method"] == "post" and "/login-actions/authenticate?session_code=" in f["action"]
    r = b.follow(b.post(urljoin(r.url, f["action"]), {}))
    assert r.status == 200 and kb.form(r.text, "kc-form-login")
    b.assert_logged_in(b.submit(r, "kc-form-login", username="alice", password="wonderland"))


def t_keycloakify(base):
    run = RUN + "-kcify"
    b = Browser(base, "keycloakify", run)
    page = b.authorize()
    assert "<form" not in page.text
    ctx = kb.kc_context(page.text)
    assert ctx["pageId"] == "login.ftl" and ctx["realm"]["name"] == "demo"
    r = b.follow(b.post(ctx["url"]["loginAction"], {"username": "alice", "password": "wrong", "credentialId": ""}))
    ctx = kb.kc_context(r.text)
    assert kb.kc_field_error(ctx, "username") == INVALID and ctx["login"]["username"] == "alice"
    r = b.follow(b.post(ctx["url"]["loginAction"], {"username": "dave", "password": "dave-pw", "credentialId": ""}))
    ctx = kb.kc_context(r.text)
    assert ctx["pageId"] == "login-otp.ftl" and len(ctx["otpLogin"]["userOtpCredentials"]) == 2
    tablet = ctx["otpLogin"]["userOtpCredentials"][1]["id"]
    b.assert_logged_in(b.follow(b.post(ctx["url"]["loginAction"], {"otp": totp_now(SEED_TABLET),
                                                                   "selectedCredentialId": tablet})))
    config(base, run, {"consent": True})
    b2 = Browser(base, "keycloakify", run)
    ctx = kb.kc_context(b2.authorize().text)
    r = b2.follow(b2.post(ctx["url"]["loginAction"], {"username": "alice", "password": "wonderland"}))
    ctx = kb.kc_context(r.text)
    assert ctx["pageId"] == "login-oauth-grant.ftl" and "loginAction" not in ctx["url"]
    b2.assert_logged_in(b2.follow(b2.post(ctx["url"]["oauthAction"], {"code": ctx["oauth"]["code"], "accept": "Yes"})))


def t_already_logged_in(base):
    b = Browser(base, "keycloak", RUN + "-again")
    page = b.authorize()
    action = urljoin(page.url, kb.form(page.text, "kc-form-login")["action"])
    b.assert_logged_in(b.submit(page, "kc-form-login", username="alice", password="wonderland"))
    r = b.post(action, {"username": "alice", "password": "wonderland"})
    assert r.status == 200 and kb.text(r.text, "kc-info-message") == "You are already logged in."


def t_hits_record_each_step(base):
    run = RUN + "-hits"
    b = Browser(base, "keycloak", run)
    b.assert_logged_in(b.login("alice", "wonderland"))
    steps = [(h["method"], h["path"].rsplit("/", 1)[-1]) for h in hits(base, run)]
    assert steps == [("GET", "auth"), ("POST", "authenticate"), ("POST", "token")], steps
    assert hits(base, run)[1]["form"]["username"] == "alice"


def t_config_theme_and_session_state(base):
    run = RUN + "-config"
    config(base, run, {"theme": "keycloak.v2", "session_state": False, "failure_factor": "x"})
    b = Browser(base, "keycloak-username-first", run)
    page = b.authorize()
    assert 'id="keycloak-bg"' in page.text
    r = b.submit(page, "kc-form-login", username="nobody")
    assert kb.text(r.text, "input-error-username") == "Invalid username or email."
    r = b.submit(r, "kc-form-login", username="alice")
    assert kb.has_id(r.text, "kc-attempted-username")
    r = b.submit(r, "kc-form-login", password="wonderland")
    assert list(b.answer(r)) == ["state", "iss", "code"], list(b.answer(r))
