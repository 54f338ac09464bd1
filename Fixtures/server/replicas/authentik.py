"""Replica of authentik's browser login and OAuth2 provider (authentik.md:
sources, state machine, scenarios, users, config keys).

Every path below /t/<run>/<scenario>/ of an authentik* scenario comes here:
    application/o/authorize/ · application/o/token/ ·
    application/o/demo/.well-known/openid-configuration
    flows/-/default/authentication/ · flows/-/cancel/ · if/flow/<slug>/
    api/v3/flows/executor/<slug>/
    static/…   (the interface's assets: empty stand-ins)
A request holds the run's lock from start to end (one session store).
"""
import re

import token_endpoint

from . import authentik_executor as executor
from . import authentik_oauth as oauth
from . import authentik_realm as realm
from .authentik_http import Ctx

SCENARIOS = frozenset(realm.SCENARIO_SETTINGS)
_FLOW_PAGE = re.compile(r"^if/flow/([a-z0-9-]+)/$")
_EXECUTOR = re.compile(r"^api/v3/flows/executor/([a-z0-9-]+)/$")


def _pyotp_missing() -> bool:
    try:
        import pyotp  # noqa: F401, PLC0415
    except ImportError:
        return True
    return False


def route(ex):
    rest = ex.rest
    if rest.startswith("static/"):
        return ex.send(200, b"", "application/octet-stream")
    ctx = Ctx(ex)
    if rest == f"application/o/{realm.APP_SLUG}/.well-known/openid-configuration":
        return oauth.discovery(ctx)
    if rest == "application/o/token/":
        return token_endpoint.token(ex)
    if _pyotp_missing():
        return ex.send(501, "pyotp not installed\n")
    with ctx.rr.lock:
        if rest == "application/o/authorize/":
            return oauth.authorize(ctx)
        if rest == "flows/-/default/authentication/":
            return oauth.default_authentication(ctx)
        if rest == "flows/-/cancel/":
            return oauth.cancel(ctx)
        page = _FLOW_PAGE.match(rest)
        if page:
            return oauth.interface(ctx, page.group(1))
        api = _EXECUTOR.match(rest)
        if api:
            return executor.executor(ctx, api.group(1))
    return ex.send(404, "not found\n")
