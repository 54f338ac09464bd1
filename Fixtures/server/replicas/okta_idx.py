"""Okta Identity Engine (IDX): the state machine behind a stateHandle.

    identify ──(password in identify, or challenge-authenticator password)──┐
      ├─ password expired ─> reenroll-authenticator (new password) ─────────┤
      └─ second factor: one TOTP ─> challenge-authenticator                 │
                        push or phone ─> authenticator-verification-data    │
                        several ─> select-authenticator-authenticate        │
         push: challenge-poll (the run's `okta_push_result`)                │
    success (`success.href` /login/token/redirect?stateToken=) <────────────┘

Every request names its transaction by `stateHandle` (introspect: the
page's `stateToken`); a remediation the current step does not offer is
refused (403, `security.access_denied`) and the step stays. Texts and i18n
keys from the Sign-In Widget's mocks and login.properties and okta-auth-js's
test factories; okta.md lists each and where sources disagree.
"""
import json
import secrets

from . import okta_idx_json as J
from . import okta_state as st
from .okta_http import read_json
from .okta_oauth import config, root
from .okta_users import find, password_ok, totp_ok

SESSION_EXPIRED = ("You have been logged out due to inactivity. Refresh or return to the sign in screen.",
                   "idx.session.expired")
ACCESS_DENIED = ("You do not have permission to perform the requested action.", "security.access_denied")
AUTH_FAILED = ("Authentication failed", "errors.E0000004")
WRONG_PASSWORD = ("Password is incorrect", "incorrectPassword")
BLANK = ("This field cannot be left blank", "model.validation.field.blank")
WRONG_GOOGLE_CODE = ("Your code doesn't match our records. Please try again.",
                     "authfactor.challenge.soft_token.invalid_passcode")
WRONG_CODE = ("Invalid code. Try again.", "api.authn.error.PASSCODE_INVALID")
PUSH_REJECTED = ("You have chosen to reject this login.", "api.authn.poll.error.push_rejected")
PUSH_TIMEOUT = ("Your push notification has expired.", "oktaverify.timeout")
ALLOWED = {"identify": {"identify"}, "challenge/answer": {"password", "code", "reenroll"},
           "challenge": {"password", "select", "data", "code", "poll"},
           "challenge/poll": {"poll"}, "challenge/resend": {"code", "poll"}}
LOCKOUT_DEFAULT = 10


def _send(ex, status, body):
    ex.send(status, json.dumps(body, separators=(",", ":")), J.ION)


def _msg(pair, cls="ERROR"):
    return J.message(pair[0], pair[1], cls)


def _code_field(factor):
    # okta-auth-js lib/idx/authenticator/OktaVerifyTotp.ts answers `totp`;
    # every other code authenticator answers `passcode`.
    return "totp" if factor.key == "okta_verify" else "passcode"


def view(ex, tx, status=200, msgs=None, errors=None):
    """The transaction's current step as Okta answers it."""
    base, errors = root(ex), errors or {}
    step, f = tx.step, tx.current
    if step == "success":
        return _send(ex, status, J.success(base, tx, config(ex).get("okta_success_shape", "success")))
    factors = list(tx.user.factors) if tx.user is not None else []
    ctx = {"messages": J.messages(*msgs) if msgs else None}
    if step == "identify":
        rem = [J.identify(base, tx, bool(config(ex).get("okta_identify_password")), errors)]
    elif step in ("password", "reenroll"):
        pw = J.password_enrollment()
        if step == "password":
            rem = [J.challenge(base, tx, "passcode", "Password", "$.currentAuthenticatorEnrollment",
                               errors.get("passcode"), secret=True), J.select(base, tx, None)]
            ctx.update(currentAuthenticatorEnrollment=pw, authenticatorEnrollments=[pw])
        else:
            rem = [J.reenroll(base, tx, errors.get("passcode"))]
            ctx.update(currentAuthenticator=pw)
    else:
        rem = [J.select(base, tx, factors)]
        if step == "data":
            rem.insert(0, J.verification_data(base, tx, f))
        elif step == "code":
            field = _code_field(f)
            relates = "$.currentAuthenticatorEnrollment" if f.kind == "sms" else "$.currentAuthenticator"
            rem.insert(0, J.challenge(base, tx, field, "Enter code", relates, errors.get(field)))
        elif step == "poll":
            rem.insert(0, J.poll(base, tx))
        ctx["authenticatorEnrollments"] = [J.enrollment(x) for x in factors]
        if f is not None:
            ctx["currentAuthenticatorEnrollment" if f.kind == "sms" else "currentAuthenticator"] = J.enrollment(f)
    _send(ex, status, J.envelope(tx, rem, **ctx))


def _terminal(ex, status, pair, tx=None):
    """No way on: messages only (the transaction is gone)."""
    body = {"version": "1.0.0", "messages": J.messages(_msg(pair))}
    if tx is not None:
        st.get(ex.state, "idx", tx.handle, pop=True)
        body = {"version": "1.0.0", "stateHandle": tx.handle, "expiresAt": J.iso(0),
                "intent": "LOGIN", "messages": J.messages(_msg(pair))}
    _send(ex, status, body)


def handle(ex, path):
    """POST /idp/idx/<path>."""
    body = read_json(ex)
    if body is None:
        return
    if path == "introspect":
        tx = st.live_idx(ex.state, body.get("stateToken") or body.get("stateHandle"))
        return view(ex, tx) if tx is not None else _terminal(ex, 401, SESSION_EXPIRED)
    tx = st.live_idx(ex.state, body.get("stateHandle"))
    if tx is None:
        return _terminal(ex, 401, SESSION_EXPIRED)
    if path == "cancel":
        st.get(ex.state, "idx", tx.handle, pop=True)
        fresh = st.IdxTx(st.okta_token("02"), tx.pending)
        st.put(ex.state, "idx", fresh.handle, fresh)
        return view(ex, fresh)
    if path not in ALLOWED or tx.step not in ALLOWED[path]:
        return view(ex, tx, 403, [_msg(ACCESS_DENIED)])
    if path == "identify":
        return _identify(ex, tx, body)
    if path == "challenge":
        return _select(ex, tx, body.get("authenticator"))
    if path == "challenge/answer":
        return _answer(ex, tx, body.get("credentials"))
    if path == "challenge/poll":
        return _poll(ex, tx)
    view(ex, tx)  # challenge/resend: the same step, the code "sent" again


def _locked(ex, user) -> bool:
    threshold = config(ex).get("okta_lockout_threshold", LOCKOUT_DEFAULT)
    return user.locked or st.failures(ex.state, ex.scenario, user.login) >= threshold


def _identify(ex, tx, body):
    identifier = body.get("identifier")
    with_password = bool(config(ex).get("okta_identify_password"))
    creds = body.get("credentials") if isinstance(body.get("credentials"), dict) else {}
    blank = {}
    if not isinstance(identifier, str) or not identifier.strip():
        blank["identifier"] = _msg(BLANK)
    if with_password and not (isinstance(creds.get("passcode"), str) and creds["passcode"]):
        blank["passcode"] = _msg(BLANK)
    if blank:
        return view(ex, tx, 400, errors=blank)
    user = find(identifier)
    if user is None:
        if with_password:
            return view(ex, tx, 401, [_msg(AUTH_FAILED)])
        text = f"There is no account with the Username {identifier}."
        return view(ex, tx, 400, [J.message(text, "idx.unknown.user", "INFO")])
    if _locked(ex, user):
        return _terminal(ex, 401, AUTH_FAILED, tx)  # okta-auth-js: locked or suspended
    tx.user = user
    if not with_password:
        tx.step = "password"
        return view(ex, tx)
    if not password_ok(user, creds["passcode"]):
        st.add_failure(ex.state, ex.scenario, user.login)
        tx.user = None
        return view(ex, tx, 401, [_msg(AUTH_FAILED)])
    _after_password(ex, tx)


def _after_password(ex, tx):
    st.clear_failures(ex.state, ex.scenario, tx.user.login)
    factors = tx.user.factors
    if tx.user.password_expired and tx.step != "reenroll":
        tx.step = "reenroll"
    elif not factors:
        tx.step, tx.done = "success", True
    elif len(factors) > 1:
        tx.step, tx.current = "select", None
    elif factors[0].kind == "totp":
        tx.step, tx.current, tx.method = "code", factors[0], factors[0].methods[0]
    else:
        tx.step, tx.current = "data", factors[0]
    view(ex, tx)


def _select(ex, tx, choice):
    if not isinstance(choice, dict) or not isinstance(choice.get("id"), str):
        return view(ex, tx, 400, errors={"authenticator": _msg(BLANK)})
    if tx.step == "password":
        return view(ex, tx)  # the only choice offered is the password itself
    factor = next((f for f in tx.user.factors if f.authenticator_id == choice["id"]
                   and choice.get("enrollmentId", f.enrollment_id) == f.enrollment_id), None)
    if factor is None:
        return view(ex, tx, 400, [_msg(ACCESS_DENIED)])
    method = choice.get("methodType")
    if method is None and len(factor.methods) == 1:
        method = factor.methods[0]
    if method not in factor.methods:
        tx.step, tx.current = "data", factor
        return view(ex, tx)
    tx.current, tx.method = factor, method
    if method == "push":
        tx.step = "poll"
    else:
        tx.step = "code"
        if factor.kind == "sms":
            tx.sms_code = "%06d" % secrets.randbelow(10 ** 6)  # "sent" to a phone no one has
    view(ex, tx)


def _answer(ex, tx, creds):
    creds = creds if isinstance(creds, dict) else {}
    if tx.step in ("password", "reenroll"):
        value = creds.get("passcode")
        if not isinstance(value, str) or not value:
            return view(ex, tx, 400, errors={"passcode": _msg(BLANK)})
        if tx.step == "reenroll":
            return _after_password(ex, tx)
        if _locked(ex, tx.user):
            return _terminal(ex, 401, AUTH_FAILED, tx)
        if not password_ok(tx.user, value):
            st.add_failure(ex.state, ex.scenario, tx.user.login)
            return view(ex, tx, 403, [_msg(WRONG_PASSWORD)])
        return _after_password(ex, tx)
    factor, field = tx.current, _code_field(tx.current)
    code = creds.get(field)
    if not isinstance(code, str) or not code:
        return view(ex, tx, 400, errors={field: _msg(BLANK)})
    good = (secrets.compare_digest(code, tx.sms_code) if factor.kind == "sms"
            else totp_ok(factor, code))
    if not good:
        pair = WRONG_GOOGLE_CODE if factor.key == "google_otp" else WRONG_CODE
        return view(ex, tx, 403, errors={field: _msg(pair)})
    tx.step, tx.done = "success", True
    view(ex, tx)


def _poll(ex, tx):
    result = str(config(ex).get("okta_push_result", "WAITING")).upper()
    if result == "APPROVED":
        tx.step, tx.done = "success", True
        return view(ex, tx)
    if result == "REJECTED":
        return view(ex, tx, 403, [_msg(PUSH_REJECTED)])
    if result == "TIMEOUT":
        return view(ex, tx, 403, [_msg(PUSH_TIMEOUT)])
    view(ex, tx)
