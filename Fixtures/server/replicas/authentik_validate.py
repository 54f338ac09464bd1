"""The authenticator validation stage (authentik/stages/authenticator_validate/
{stage,challenge}.py), device classes totp, webauthn, sms and duo.

GET: one device challenge per class of the pending user's devices
({device_class, device_uid, challenge, last_used}); WebAuthn's challenge is
py_webauthn's authentication options with every WebAuthn device of the user
in allowCredentials; none at all → the stage is skipped (not configured:
skip, the default stage's setting). POST, as the response serializer checks:
- `selected_challenge` must be one of the session's; selecting SMS sends a
  code (kept server-side, never shown);
- `code`: a TOTP code (django-otp: ±1 step, never a step already used) or
  the SMS code; else field `code`: "Invalid Token. Please ensure the time on
  your device is accurate and try again.";
- `webauthn`: the assertion; unknown credential or another user's →
  "Invalid device", failed verification → "Assertion failed";
- `duo`: the device's pk; the replica has no Duo service: "Duo denied access";
- none of them → non_field_errors "Empty response".
A class the session did not offer → "No compatible device class allowed".
Failed codes and assertions count as failed logins (reputation).
"""
import datetime
import hashlib
import secrets
import time

from . import authentik_webauthn as wa
from .authentik_challenges import challenge, error

OK = ("ok",)
INVALID_TOKEN = "Invalid Token. Please ensure the time on your device is accurate and try again."


def _user(plan):
    pending = plan["context"].get("pending_user")
    return pending if isinstance(pending, str) else None


def _device_challenges(ctx, username):
    out, seen = [], set()
    for device in ctx.rr.devices_of(username):
        if device.kind in seen or (device.kind == "webauthn" and not wa.available()):
            continue
        seen.add(device.kind)
        data = {}
        if device.kind == "webauthn":
            data, raw = wa.options(ctx.rp_id, ctx.rr.devices_of(username, "webauthn"),
                                   ctx.settings.webauthn_user_verification)
            ctx.session.data["webauthn_challenge"] = raw
        out.append({"device_class": device.kind, "device_uid": str(device.pk), "challenge": data,
                    "last_used": device.last_used})
    return out


def get(ctx, plan, errors=None):
    username = _user(plan)
    if username is None or plan["context"].get("backend") == "auth_webauthn_pwl":
        return OK   # no user, or a passkey already was the second factor (unconfirmed, authentik.md)
    if errors is None:
        ctx.session.data["device_challenges"] = _device_challenges(ctx, username)
    challenges = ctx.session.data.get("device_challenges", [])
    if not challenges:
        return OK
    fields = {"device_challenges": challenges, "configuration_stages": []}
    return ("challenge", challenge(ctx, plan, "ak-stage-authenticator-validate", fields, errors, with_user=True))


def _allowed(ctx, classes):
    return any(c["device_class"] in classes for c in ctx.session.data.get("device_challenges", []))


def _used(device):
    device.last_used = datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def _check_code(ctx, username, code):
    import pyotp  # noqa: PLC0415
    for device in ctx.rr.devices_of(username):
        if device.kind == "totp":
            totp = pyotp.TOTP(device.secret, digest=hashlib.sha1)
            for offset in (0, -1, 1):
                step = int(time.time() // 30) + offset
                if step > device.last_t and secrets.compare_digest(totp.at(step * 30), code):
                    device.last_t = step
                    return device
        if device.kind == "sms" and device.token and secrets.compare_digest(device.token, code):
            device.token = None
            return device
    return None


def check_webauthn(ctx, data, username):
    """validate_challenge_webauthn: (device, None) or (None, the error text)."""
    if not isinstance(data, dict):
        return None, "Invalid device"
    device = next((d for d in ctx.rr.devices if d.kind == "webauthn" and d.credential_id == data.get("id")), None)
    if device is None or (username is not None and device.user != username):
        return None, "Invalid device"
    raw = ctx.session.data.get("webauthn_challenge") or b""
    count, problem = wa.verify(data, device, raw, ctx.rp_id, ctx.base,
                               ctx.settings.webauthn_user_verification == "required")
    if problem is not None:
        ctx.rr.failed_login(device.user)
        return None, "Assertion failed"
    device.sign_count = count
    _used(device)
    return device, None


def post(ctx, plan, data):
    username = _user(plan)
    errors = {}
    selected = data.get("selected_challenge")
    if selected is not None:
        offered = [c for c in ctx.session.data.get("device_challenges", [])
                   if isinstance(selected, dict) and c["device_class"] == selected.get("device_class")
                   and c["device_uid"] == str(selected.get("device_uid"))]
        if not offered:
            errors["selected_challenge"] = error("invalid challenge selected")
        elif offered[0]["device_class"] == "sms":
            device = next(d for d in ctx.rr.devices if str(d.pk) == offered[0]["device_uid"])
            device.token = f"{secrets.randbelow(10 ** 6):06d}"
    device = None
    if "code" in data:
        if not _allowed(ctx, ("totp", "static", "sms")):
            errors["code"] = error("No compatible device class allowed")
        elif not isinstance(data["code"], str) or not data["code"]:
            errors["code"] = error("This field may not be blank.", "blank")
        else:
            device = _check_code(ctx, username, data["code"].strip())
            if device is None:
                ctx.rr.failed_login(username)
                errors["code"] = error(INVALID_TOKEN)
    if "webauthn" in data:
        if not _allowed(ctx, ("webauthn",)):
            errors["webauthn"] = error("No compatible device class allowed")
        else:
            device, problem = check_webauthn(ctx, data["webauthn"], username)
            if problem:
                errors["webauthn"] = error(problem)
    if "duo" in data:
        if not _allowed(ctx, ("duo",)):
            errors["duo"] = error("No compatible device class allowed")
        else:
            errors["duo"] = error("Duo denied access", "denied")
    if not errors and not any(k in data for k in ("code", "webauthn", "duo")):
        errors["non_field_errors"] = error("Empty response")
    if errors:
        return get(ctx, plan, errors)
    _used(device)
    return OK

