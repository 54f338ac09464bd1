"""Identity Engine (IDX) response objects, in the shapes of the Sign-In
Widget's recorded responses (okta-signin-widget playground/mocks/data/idp/
idx/: identify.json, identify-with-password.json, authenticator-verification-
password.json, -google-authenticator.json, -okta-verify-totp.json,
-okta-verify-push.json, -data-okta-verify-push-only-without-autochallenge.json,
-phone-sms.json, -data-phone-sms-then-voice.json, authenticator-expired-
password.json, success.json, success-redirect-remediation.json) and of
okta-auth-js's test factories (test/support/idx/factories/*.ts):
`remediation.value[]` forms with `name`, `href`, `method`, `value[]`,
`relatesTo`; `currentAuthenticator(Enrollment)`, `authenticatorEnrollments`,
`messages.value[]{message, i18n.key, class}`, `success`.
"""
from .okta_http import iso
from .okta_users import PASSWORD_AUTHENTICATOR, PASSWORD_ENROLLMENT

ION = "application/ion+json; okta-version=1.0.0"


def message(text: str, key, cls: str = "ERROR") -> dict:
    out = {"message": text, "i18n": {"key": key}, "class": cls}
    if key is None:
        del out["i18n"]
    return out


def messages(*items) -> dict:
    return {"type": "array", "value": list(items)}


def _handle(tx) -> dict:
    return {"name": "stateHandle", "required": True, "value": tx.handle,
            "visible": False, "mutable": False}


def form(base, tx, name, path, values, relates=None, **extra) -> dict:
    out = {"rel": ["create-form"], "name": name, "href": base + "/idp/idx/" + path,
           "method": "POST", "produces": ION, "value": values + [_handle(tx)],
           "accepts": "application/json; okta-version=1.0.0"}
    if relates:
        out["relatesTo"] = [relates]
    out.update(extra)
    return out


def _field(name, label, error=None, **more) -> dict:
    out = {"name": name, "label": label, **more}
    if error is not None:
        out["messages"] = messages(error)
    return out


def _credentials(name, label, error=None, secret=False) -> dict:
    inner = _field(name, label, error, **({"secret": True} if secret else {}))
    return {"name": "credentials", "type": "object", "form": {"value": [inner]}, "required": True}


def identify(base, tx, with_password, errors=None) -> dict:
    errors = errors or {}
    values = [_field("identifier", "Username", errors.get("identifier"), required=True)]
    if with_password:
        values.append(_credentials("passcode", "Password", errors.get("passcode"), secret=True))
    values.append({"name": "rememberMe", "label": "Keep me signed in", "type": "boolean"})
    return form(base, tx, "identify", "identify", values)


def challenge(base, tx, field, label, relates, error=None, secret=False) -> dict:
    return form(base, tx, "challenge-authenticator", "challenge/answer",
                [_credentials(field, label, error, secret)], relates)


def reenroll(base, tx, error=None) -> dict:
    return form(base, tx, "reenroll-authenticator", "challenge/answer",
                [_credentials("passcode", "New password", error, secret=True)], "$.currentAuthenticator")


def password_enrollment() -> dict:
    return {"type": "password", "key": "okta_password", "id": PASSWORD_AUTHENTICATOR,
            "authenticatorId": PASSWORD_ENROLLMENT, "displayName": "Password",
            "methods": [{"type": "password"}]}


def enrollment(factor) -> dict:
    out = {"type": factor.idx_type, "key": factor.key, "id": factor.authenticator_id,
           "displayName": factor.display, "methods": [{"type": m} for m in factor.methods]}
    if factor.kind == "sms":
        out["enrollmentId"] = factor.enrollment_id
        out["profile"] = dict(factor.profile)
    return out


def _option(factor, index) -> dict:
    values = [{"name": "id", "required": True, "value": factor.authenticator_id, "mutable": False}]
    if len(factor.methods) == 1:
        values.append({"name": "methodType", "required": False, "value": factor.methods[0], "mutable": False})
    else:
        values.append({"name": "methodType", "type": "string", "required": False,
                       "options": [{"label": m.upper(), "value": m} for m in factor.methods]})
    if factor.kind == "sms":
        values.append({"name": "enrollmentId", "required": True, "value": factor.enrollment_id, "mutable": False})
    return {"label": factor.display, "value": {"form": {"value": values}},
            "relatesTo": f"$.authenticatorEnrollments.value[{index}]"}


def select(base, tx, factors) -> dict:
    """select-authenticator-authenticate; `factors` None lists the password."""
    if factors is None:
        opts = [{"label": "Password", "value": {"form": {"value": [
            {"name": "id", "required": True, "value": PASSWORD_AUTHENTICATOR, "mutable": False},
            {"name": "methodType", "required": False, "value": "password", "mutable": False}]}},
            "relatesTo": "$.authenticatorEnrollments.value[0]"}]
    else:
        opts = [_option(f, i) for i, f in enumerate(factors)]
    return form(base, tx, "select-authenticator-authenticate", "challenge",
                [{"name": "authenticator", "type": "object", "options": opts}])


def verification_data(base, tx, factor) -> dict:
    """authenticator-verification-data: pick how the enrolled factor is used."""
    values = [{"name": "id", "required": True, "value": factor.authenticator_id, "mutable": False},
              {"name": "methodType", "type": "string", "required": True,
               "options": [{"label": m.upper(), "value": m} for m in factor.methods]}]
    if factor.kind == "sms":
        values.append({"name": "enrollmentId", "required": True, "value": factor.enrollment_id, "mutable": False})
    relates = "$.currentAuthenticatorEnrollment" if factor.kind == "sms" else "$.currentAuthenticator"
    return form(base, tx, "authenticator-verification-data", "challenge",
                [{"name": "authenticator", "label": factor.display, "form": {"value": values}}], relates)


def poll(base, tx) -> dict:
    return form(base, tx, "challenge-poll", "challenge/poll", [], "$.currentAuthenticator", refresh=4000)


def envelope(tx, remediations, **context) -> dict:
    out = {"version": "1.0.0", "stateHandle": tx.handle, "expiresAt": iso(300), "intent": "LOGIN"}
    if remediations is not None:
        out["remediation"] = {"type": "array", "value": remediations}
    for name, value in context.items():
        if value is not None:
            kind = "array" if isinstance(value, list) else "object"
            out[name] = value if name == "messages" else {"type": kind, "value": value}
    if tx.user is not None:
        out["user"] = {"type": "object", "value": {"id": tx.user.user_id, "identifier": tx.user.login}}
    out["app"] = {"type": "object", "value": {"name": "oidc_client", "label": "authcode",
                                              "id": tx.pending.client_id}}
    return out


def success(base, tx, shape) -> dict:
    href = f"{base}/login/token/redirect?stateToken={tx.handle}"
    if shape == "remediation":
        return envelope(tx, [{"name": "success-redirect", "href": href, "method": "GET"}])
    out = envelope(tx, None)
    out["success"] = {"name": "success-redirect", "href": href}
    return out
