#!/usr/bin/env python3
"""Self-test of the Authentik replica (authentik.md), playing authentik's
web interface (selftest_authentik_support.py) and, for WebAuthn, a software
authenticator (selftest_passkey.py) answering as the web client's
transformAssertionForServer does. Starts its own fixture server, reached as
http://localhost:PORT.

    .venv/bin/python Fixtures/server/replicas/selftest_authentik.py

One line per check, then `N passed, M failed`; exit status 0 iff none failed.
"""
import hashlib
import os
import sys
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from selftest_authentik_support import RUN, SEED_TOTP, Browser, config, hits  # noqa: E402
from selftest_passkey import Passkey, b64url  # noqa: E402
from selftest_runner import run  # noqa: E402
from selftest_support import totp_now  # noqa: E402

INVALID_TOKEN = "Invalid Token. Please ensure the time on your device is accurate and try again."


def _errors(ch, field):
    return [e["string"] for e in ch.get("response_errors", {}).get(field, [])]


def _key(base, seed, user_handle=None):
    cred = hashlib.sha256(b"authentik-replica-credential-" + seed.encode()).digest()
    return Passkey.from_seed(urlsplit(base).hostname, seed, cred, user_handle, prefix=b"authentik-replica-webauthn-")


def _assertion(key, options, origin):
    got = key.get(options["challenge"], origin)
    return {"id": got["credentialId"], "rawId": got["credentialId"], "type": "public-key",
            "registrationClientExtensions": "{}",
            "response": {"clientDataJSON": got["clientDataJSON"], "authenticatorData": got["authenticatorData"],
                         "signature": got["signature"], "userHandle": got["userHandle"] or None}}


def t_discovery(base):
    b = Browser(base, "authentik")
    doc = b.get(b.iss + ".well-known/openid-configuration").json()
    assert doc["issuer"] == b.iss and doc["authorization_endpoint"] == b.root + "/application/o/authorize/"
    assert doc["token_endpoint"] == b.root + "/application/o/token/"


def t_password_login(base):
    run_id = RUN + "-alice"
    b = Browser(base, "authentik", run_id)
    r = b.get(b.root + "/application/o/authorize/?client_id=demo-app&response_type=code&redirect_uri=" + b.cb)
    assert r.status == 302 and r.location.startswith(f"/t/{run_id}/authentik/flows/-/default/authentication/?next=/t/")
    ch = b.authorize()
    assert ch["component"] == "ak-stage-identification" and ch["user_fields"] == ["email", "username"]
    assert ch["application_pre"] == "Demo" and ch["flow_info"]["title"] == "Welcome to authentik!"
    assert "authentik_csrf" in b.c.cookies and "authentik_session" in b.c.cookies
    before = dict(b.c.cookies)
    ch = b.answer("ak-stage-identification", uid_field="alice@example.com")
    assert ch["component"] == "ak-stage-password" and ch["pending_user"] == "alice"
    ch = b.answer("ak-stage-password", password="wonderland")
    assert ch == {"component": "xak-flow-redirect", "to": ch["to"]} and "/application/o/authorize/?" in ch["to"]
    assert b.c.cookies["authentik_session"] != before["authentik_session"], "login cycles the session"
    assert b.c.cookies["authentik_csrf"] != before["authentik_csrf"], "login rotates the CSRF token"
    b.finish(ch)
    steps = [(h["method"], h["path"].split("/t/", 1)[1].split("/", 2)[2]) for h in hits(base, run_id)]
    assert ("POST", "api/v3/flows/executor/default-authentication-flow/") in steps
    assert steps[-1] == ("POST", "application/o/token/"), steps[-1]


def t_wrong_password_and_too_many(base):
    b = Browser(base, "authentik", RUN + "-wrong")
    ch = b.login("alice", "nope")
    assert ch["component"] == "ak-stage-password" and _errors(ch, "password") == ["Invalid password"]
    for _ in range(4):
        ch = b.answer("ak-stage-password", password="nope")
    assert ch["component"] == "ak-stage-access-denied" and ch["error_message"] == "Invalid password", ch
    ch = b.challenge(b.get(b.executor_url))
    assert ch["component"] == "ak-stage-identification", "a denied flow starts again"


def t_unknown_user(base):
    run_id = RUN + "-unknown"
    b = Browser(base, "authentik", run_id)
    ch = b.login("nobody", "x")
    assert _errors(ch, "password") == ["Invalid password"], "pretend_user_exists: on to the password stage"
    config(base, run_id, {"pretend_user_exists": False})
    b2 = Browser(base, "authentik", run_id)
    b2.authorize()
    ch = b2.answer("ak-stage-identification", uid_field="nobody")
    assert _errors(ch, "non_field_errors") == ["Failed to authenticate."]
    ch = b2.answer("ak-stage-identification", uid_field="")
    assert _errors(ch, "non_field_errors") == ["No identification data provided."]


def t_password_in_identification(base):
    b = Browser(base, "authentik-merged")
    ch = b.authorize()
    assert ch["password_fields"] is True
    ch = b.answer("ak-stage-identification", uid_field="alice", password="nope")
    assert _errors(ch, "non_field_errors") == ["Failed to authenticate."]
    b.finish(b.answer("ak-stage-identification", uid_field="alice", password="wonderland"))


def t_totp(base):
    run_id = RUN + "-totp"
    b = Browser(base, "authentik", run_id)
    ch = b.login("carol", "carol-pw")
    assert ch["component"] == "ak-stage-authenticator-validate"
    assert [(c["device_class"], c["challenge"]) for c in ch["device_challenges"]] == [("totp", {})]
    ch = b.answer("ak-stage-authenticator-validate", code="000000" if totp_now(SEED_TOTP) != "000000" else "111111")
    assert _errors(ch, "code") == [INVALID_TOKEN]
    code = totp_now(SEED_TOTP)
    b.finish(b.answer("ak-stage-authenticator-validate", code=code))
    b2 = Browser(base, "authentik", run_id)
    b2.login("carol", "carol-pw")
    ch = b2.answer("ak-stage-authenticator-validate", code=code)
    assert _errors(ch, "code") == [INVALID_TOKEN], "a code is taken once"


def t_webauthn_second_factor(base):
    run_id = RUN + "-erin"
    b = Browser(base, "authentik", run_id)
    ch = b.login("erin", "erin-pw")
    options = ch["device_challenges"][0]["challenge"]
    key = _key(base, "erin")
    assert options["rpId"] == "localhost" and options["allowCredentials"][0]["id"] == b64url(key.credential_id)
    b.finish(b.answer("ak-stage-authenticator-validate", webauthn=_assertion(key, options, base)))
    b2 = Browser(base, "authentik", run_id)
    options = b2.login("erin", "erin-pw")["device_challenges"][0]["challenge"]
    ch = b2.answer("ak-stage-authenticator-validate", webauthn=_assertion(Passkey("localhost"), options, base))
    assert _errors(ch, "webauthn") == ["Invalid device"]
    key.sign_count -= 1
    options = ch["device_challenges"][0]["challenge"]
    ch = b2.answer("ak-stage-authenticator-validate", webauthn=_assertion(key, options, base))
    assert _errors(ch, "webauthn") == ["Assertion failed"], "a signCount that does not grow"


def t_both_devices(base):
    b = Browser(base, "authentik")
    ch = b.login("gina", "gina-pw")
    assert [c["device_class"] for c in ch["device_challenges"]] == ["totp", "webauthn"]
    b.finish(b.answer("ak-stage-authenticator-validate", code=totp_now(SEED_TOTP),
                      selected_challenge=ch["device_challenges"][0]))


def t_sms_and_duo_cannot_be_answered(base):
    b = Browser(base, "authentik")
    ch = b.login("sam", "sam-pw")
    assert [c["device_class"] for c in ch["device_challenges"]] == ["sms"]
    ch = b.answer("ak-stage-authenticator-validate", selected_challenge=ch["device_challenges"][0])
    assert _errors(ch, "non_field_errors") == ["Empty response"], "the code went by SMS"
    ch = b.answer("ak-stage-authenticator-validate", code="123456")
    assert _errors(ch, "code") == [INVALID_TOKEN]
    b2 = Browser(base, "authentik")
    ch = b2.login("dan", "dan-pw")
    assert ch["device_challenges"][0]["device_class"] == "duo"
    ch = b2.answer("ak-stage-authenticator-validate", duo=int(ch["device_challenges"][0]["device_uid"]))
    assert _errors(ch, "duo") == ["Duo denied access"]


def t_locked_user(base):
    run_id = RUN + "-locked"
    b = Browser(base, "authentik", run_id)
    ch = b.login("locked", "locked-pw")
    assert ch["component"] == "ak-stage-access-denied" and ch["error_message"] == "Invalid password"
    config(base, run_id, {"show_lockout_message": True})
    ch = Browser(base, "authentik", run_id).login("locked", "locked-pw")
    assert ch["error_message"].startswith("Your account has been locked out due to too many failed attempts.")


def t_consent_and_csrf(base):
    b = Browser(base, "authentik-consent")
    ch = b.follow(b.login("alice", "wonderland"))
    assert ch["component"] == "ak-stage-consent" and ch["flow_info"]["title"] == "Redirecting to Demo"
    assert [p["id"] for p in ch["permissions"]] == ["email"] and ch["pending_user"] == "alice"
    b.csrf = False
    r = b.solve("ak-stage-consent", token=ch["token"])
    assert r.status == 403 and r.json() == {"detail": "CSRF Failed: CSRF token missing."}, r.text
    b.csrf = True
    again = b.answer("ak-stage-consent", token="not-the-token")
    assert again["component"] == "ak-stage-consent" and again["token"] != ch["token"]
    ch = b.answer("ak-stage-consent", token=again["token"])
    location = b.follow(ch)
    assert location.startswith(b.cb + "?code=") and location.endswith("&state=st-1")
    assert b.redeem(location).status == 200


def t_anonymous_post_needs_no_csrf_and_json_only(base):
    b = Browser(base, "authentik", csrf=False)
    b.authorize()
    ch = b.answer("ak-stage-identification", uid_field="alice")
    assert ch["component"] == "ak-stage-password"
    r = b.c.request("POST", b.executor_url, form={"component": "ak-stage-password", "password": "wonderland"})
    assert r.status == 415 and r.json()["detail"].startswith("Unsupported media type")


def t_passkey_login(base):
    b = Browser(base, "authentik-passkey")
    ch = b.authorize()
    options = ch["passkey_challenge"]
    assert options["rpId"] == "localhost" and options.get("allowCredentials", []) == []
    key = _key(base, "henry", b"henry")
    ch = b.answer("ak-stage-identification", passkey=_assertion(key, options, base))
    b.finish(ch)


def t_form_post_and_legacy_type(base):
    run_id = RUN + "-legacy"
    config(base, run_id, {"legacy_type_field": True})
    b = Browser(base, "authentik", run_id)
    ch = b.authorize(response_mode="form_post")
    assert ch["type"] == "native"
    ch = b.answer("ak-stage-identification", uid_field="alice")
    ch = b.answer("ak-stage-password", password="wonderland")
    assert ch["type"] == "redirect"
    ch = b.follow(ch)
    assert ch["component"] == "ak-stage-autosubmit" and ch["url"] == b.cb
    assert set(ch["attrs"]) == {"code", "state"} and ch["attrs"]["state"] == "st-1"


if __name__ == "__main__":
    sys.exit(run((sys.modules[__name__],)))
