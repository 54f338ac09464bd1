"""Replica of Keycloak's browser login (keycloak.md: sources, state machine,
scenarios, users, config keys).

Every path below /t/<run>/<scenario>/ of a keycloak* scenario comes here:
    realms/demo/.well-known/openid-configuration
    realms/demo/protocol/openid-connect/auth | token
    realms/demo/login-actions/authenticate | required-action | consent | restart
    resources/…   (the themes' scripts and styles: empty stand-ins)
A request holds its realm's lock from start to end, so one browser's
concurrent clicks are serialised as Keycloak's session store would.
OTP needs pyotp and WebAuthn py_webauthn (both in the venv); without pyotp
the login pages answer 501, like the fixture's totp scenarios.
"""
import token_endpoint

from . import keycloak_login_actions as login_actions
from . import keycloak_oidc as oidc
from .keycloak_context import Ctx
from .keycloak_realm import REALM
from .keycloak_realm import SPECS

SCENARIOS = frozenset(SPECS)
PREFIX = f"realms/{REALM}/"
TYPES = {"js": "application/javascript", "css": "text/css", "ico": "image/x-icon", "svg": "image/svg+xml"}


def _pyotp_missing() -> bool:
    try:
        import pyotp  # noqa: F401, PLC0415
    except ImportError:
        return True
    return False


def _resource(ex):
    kind = TYPES.get(ex.rest.rsplit(".", 1)[-1], "application/octet-stream")
    ex.send(200, "/* replica: the theme's resources are not served */\n" if "/" in kind else b"", kind)


def route(ex):
    rest = ex.rest
    if rest.startswith("resources/"):
        return _resource(ex)
    if rest.startswith("realms/") and not rest.startswith(PREFIX):
        return ex.json_response(404, {"error": "Realm does not exist"})
    if not rest.startswith(PREFIX):
        return ex.send(404, "not found\n")
    sub = rest[len(PREFIX):]
    ctx = Ctx(ex)
    if sub == ".well-known/openid-configuration":
        return oidc.discovery(ctx)
    if sub == "protocol/openid-connect/token":
        return token_endpoint.token(ex)
    if sub != "protocol/openid-connect/auth" and not sub.startswith("login-actions/"):
        return ex.send(404, "not found\n")
    if _pyotp_missing():
        return ex.send(501, "pyotp not installed\n")
    with ctx.rr.lock:
        if sub == "protocol/openid-connect/auth":
            return oidc.authorize(ctx)
        return login_actions.route(ctx, sub[len("login-actions/"):])
