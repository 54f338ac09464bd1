"""WebAuthn checks of the Keycloak replica: the software authenticator
(selftest_passkey.py) answers what webauthnAuthenticate.js and
webauthnRegister.js ask for, reading the arguments from the page's
script and `#authn_select`; the replica verifies with py_webauthn."""
import hashlib
import re
import uuid
from urllib.parse import urljoin, urlsplit

import selftest_keycloak_browser as kb
from selftest_keycloak_support import RUN, SEED_PHONE, Browser
from selftest_passkey import Passkey, b64url, b64url_decode
from selftest_support import totp_now


def _uid(username):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "keycloak-replica/" + username)).encode()


def _fixed(base, seed, username=None):
    cred = hashlib.sha256(b"keycloak-replica-credential-" + seed.encode()).digest()
    return Passkey.from_seed(urlsplit(base).hostname, seed, cred, _uid(username) if username else None)


def _origin(base):
    return base


def _try_again(b, r):
    """webauthn-error.ftl's "Try again": refreshPage() fills the hidden form."""
    f = kb.form(r.text, "kc-error-credential-form")
    execution = re.search(r"executionValue'\)\.value = '([^']+)'", r.text).group(1)
    return b.follow(b.post(urljoin(r.url, f["action"]), kb.submission(
        f, authenticationExecution=execution, isSetRetry="retry")))


def _assert(b, r, key, base, rp_id=None, listed=True):
    """Sign the page's challenge, post the #webauth form as the script does."""
    args = kb.script_args(r.text)
    assert args["rpId"] == urlsplit(base).hostname, args
    allowed = [x["value"] for x in kb.form(r.text, "authn_select")["fields"]] if kb.has_id(r.text, "authn_select") else []
    answer = key.get(args["challenge"], _origin(base), rp_id)
    if allowed and listed:
        assert answer["credentialId"] in allowed, "the page names our credential"
    f = kb.form(r.text, "webauth")
    return b.follow(b.post(urljoin(r.url, f["action"]), kb.submission(f, **answer)))


def t_webauthn_second_factor(base):
    run = RUN + "-erin"
    b = Browser(base, "keycloak", run)
    r = b.login("erin", "erin-pw")
    assert kb.text(r.text, "kc-page-title") == "Passkey login"
    assert kb.script_args(r.text)["isUserIdentified"] == "true"
    assert [x["name"] for x in kb.form(r.text, "webauth")["fields"]] == [
        "clientDataJSON", "authenticatorData", "signature", "credentialId", "userHandle", "error"]
    key = _fixed(base, "erin")
    b.assert_logged_in(_assert(b, r, key, base))
    b2 = Browser(base, "keycloak", run)
    key.sign_count -= 1                      # a counter that does not grow: refused
    r = _assert(b2, b2.login("erin", "erin-pw"), key, base)
    assert kb.text(r.text, "kc-page-title") == "Passkey Error"
    assert "Passkey authentication result is invalid." in r.text
    r = _try_again(b2, r)
    key.sign_count += 5
    b2.assert_logged_in(_assert(b2, r, key, base))


def t_webauthn_foreign_credential(base):
    b = Browser(base, "keycloak")
    r = b.login("erin", "erin-pw")
    r = _assert(b, r, Passkey(urlsplit(base).hostname), base, listed=False)
    assert "Unknown user authenticated by the Passkey." in r.text


def t_webauthn_wrong_rp_id(base):
    b = Browser(base, "keycloak")
    r = _assert(b, b.login("erin", "erin-pw"), _fixed(base, "erin"), base, rp_id="evil.example")
    assert "Passkey authentication result is invalid." in r.text


def t_webauthn_v2_page(base):
    b = Browser(base, "keycloak-v2")
    r = b.login("erin", "erin-pw")
    assert "challenge : '" in r.text, "v2 quotes the arguments with single quotes"
    b.assert_logged_in(_assert(b, r, _fixed(base, "erin"), base))


def t_try_another_way(base):
    b = Browser(base, "keycloak")
    r = b.login("gina", "gina-pw")
    assert kb.form(r.text, "kc-otp-login-form") and kb.form(r.text, "kc-select-try-another-way-form")
    r = b.submit(r, "kc-select-try-another-way-form")
    assert kb.text(r.text, "kc-page-title") == "Select login method"
    f = kb.form(r.text, "kc-select-credential-form")
    choices = [v for n, v in f["buttons"] if n == "authenticationExecution"]
    assert len(choices) == 2 and "Authenticator Application" in r.text and "Passkey" in r.text
    r = b.follow(b.post(urljoin(r.url, f["action"]), {"authenticationExecution": choices[1]}))
    assert kb.text(r.text, "kc-page-title") == "Passkey login"
    b.assert_logged_in(_assert(b, r, _fixed(base, "gina"), base))
    b2 = Browser(base, "keycloak")
    r = b2.submit(b2.login("gina", "gina-pw"), "kc-select-try-another-way-form")
    f = kb.form(r.text, "kc-select-credential-form")
    r = b2.follow(b2.post(urljoin(r.url, f["action"]), {"authenticationExecution": f["buttons"][0][1]}))
    b2.assert_logged_in(b2.otp(r, SEED_PHONE))


def _register(b, r, base, key):
    args = kb.script_args(r.text)
    assert args["rpId"] == urlsplit(base).hostname and args["signatureAlgorithms"] == [-7, -257]
    made = key.create(args["challenge"], _origin(base), b64url_decode(args["userid"]))
    f = kb.form(r.text, "register")
    return b.follow(b.post(urljoin(r.url, f["action"]), kb.submission(
        f, clientDataJSON=made["clientDataJSON"], attestationObject=made["attestationObject"],
        publicKeyCredentialId=made["rawId"], authenticatorLabel="CI key", transports="internal")))


def t_webauthn_register_then_login(base):
    run = RUN + "-keysetup"
    b = Browser(base, "keycloak", run)
    r = b.login("keysetup", "keysetup-pw")
    assert kb.text(r.text, "kc-page-title") == "Passkey Registration" and kb.form(r.text, "register")
    f = kb.form(r.text, "register")
    bad = b.follow(b.post(urljoin(r.url, f["action"]), kb.submission(f, error="NotAllowedError")))
    assert "Passkey registration result is invalid." in bad.text and "NotAllowedError" in bad.text
    r = _try_again(b, bad)
    key = Passkey(urlsplit(base).hostname)
    b.assert_logged_in(_register(b, r, base, key))
    b2 = Browser(base, "keycloak", run)
    r = b2.login("keysetup", "keysetup-pw")
    assert b64url(key.credential_id) in [x["value"] for x in kb.form(r.text, "authn_select")["fields"]]
    b2.assert_logged_in(_assert(b2, r, key, base))


def t_passwordless_username_then_passkey(base):
    b = Browser(base, "keycloak-passwordless")
    page = b.authorize()
    assert kb.form(page.text, "webauth") and kb.script_args(page.text)["isUserIdentified"] == "false"
    r = b.submit(page, "kc-form-login", username="henry")
    assert kb.text(r.text, "kc-page-title") == "Passkey login"
    b.assert_logged_in(_assert(b, r, _fixed(base, "henry", "henry"), base))


def t_passwordless_discoverable(base):
    b = Browser(base, "keycloak-passwordless", RUN + "-discoverable")
    page = b.authorize()
    b.assert_logged_in(_assert(b, page, _fixed(base, "henry", "henry"), base))


def t_passwordless_registers_missing_passkey(base):
    run = RUN + "-pl-register"
    b = Browser(base, "keycloak-passwordless", run)
    r = b.submit(b.authorize(), "kc-form-login", username="alice")
    assert kb.text(r.text, "kc-page-title") == "Passkey Registration"
    assert kb.script_args(r.text)["requireResidentKey"] == "Yes"
    key = Passkey(urlsplit(base).hostname)
    b.assert_logged_in(_register(b, r, base, key))
    b2 = Browser(base, "keycloak-passwordless", run)
    b2.assert_logged_in(_assert(b2, b2.authorize(), key, base))


def t_keycloakify_webauthn(base):
    b = Browser(base, "keycloakify")
    ctx = kb.kc_context(b.authorize().text)
    r = b.follow(b.post(ctx["url"]["loginAction"], {"username": "erin", "password": "erin-pw"}))
    ctx = kb.kc_context(r.text)
    assert ctx["pageId"] == "webauthn-authenticate.ftl" and ctx["rpId"] == urlsplit(base).hostname
    allowed = [a["credentialId"] for a in ctx["authenticators"]["authenticators"]]
    answer = _fixed(base, "erin").get(ctx["challenge"], _origin(base))
    assert answer["credentialId"] in allowed
    b.assert_logged_in(b.follow(b.post(ctx["url"]["loginAction"], {**answer, "error": ""})))

