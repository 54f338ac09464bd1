"""Challenge objects as authentik's flow executor sends them (JSON).

Shapes from the API schema (goauthentik/client-go schema.yml of 2026.2:
ChallengeTypes and each *Challenge) and authentik/flows/{challenge,stage}.py:
every challenge has `flow_info` {title, background, cancel_url, layout} and
`component`; `response_errors` {field: [{string, code}]} when a response
was refused (field `non_field_errors` for whole-response errors, as DRF
names them); challenges "with user info" add `pending_user` and
`pending_user_avatar`. Key order as a captured server answer has them.
Before 2023.x every challenge also had `type` (native | redirect | shell):
setting legacy_type_field adds it.
"""
import base64

from . import authentik_realm as realm

FLOW_TITLES = {realm.AUTH_FLOW: "Welcome to authentik!", realm.IMPLICIT_FLOW: "Redirecting to %(app)s",
               realm.EXPLICIT_FLOW: "Redirecting to %(app)s"}


def avatar(name: str) -> str:
    """authentik's initials avatar (an SVG data URI)."""
    initials = "".join(p[0] for p in name.split()[:2]).upper() or "?"
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="64px" height="64px" viewBox="0 0 64 64" version="1.1">'
           '<rect fill="#37c8a5" cx="32" cy="32" width="64" height="64" r="32"/>'
           '<text x="50%" y="50%" style="color: #fff; line-height: 1;" fill="#fff" alignment-baseline="middle" '
           'dominant-baseline="middle" text-anchor="middle" font-size="28" font-weight="400" dy=".1em">'
           f"{initials}</text></svg>")
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def flow_info(ctx, flow_slug) -> dict:
    return {"title": FLOW_TITLES.get(flow_slug, "") % {"app": realm.APP_NAME},
            "background": f"{ctx.root}/static/dist/assets/images/flow_background.jpg",
            "cancel_url": f"{ctx.root}/flows/-/cancel/", "layout": "stacked"}


def challenge(ctx, plan, component, fields=None, errors=None, with_user=False, kind="native") -> dict:
    out = {"flow_info": flow_info(ctx, plan["flow"]), "component": component}
    if ctx.settings.legacy_type_field:
        out["type"] = kind
    if errors:
        out["response_errors"] = errors
    if with_user:
        pending = plan["context"].get("pending_user")
        user = ctx.rr.users.get(pending) if isinstance(pending, str) else None
        out["pending_user"] = user.username if user else (pending or {}).get("username", "")
        out["pending_user_avatar"] = avatar(user.name if user else out["pending_user"])
    out.update(fields or {})
    return out


def error(text, code="invalid") -> list:
    return [{"string": text, "code": code}]


def redirect(ctx, to) -> dict:
    """xak-flow-redirect, as the executor turns a redirect into a challenge."""
    out = {"component": "xak-flow-redirect", "to": to}
    if ctx.settings.legacy_type_field:
        out["type"] = "redirect"
    return out


def access_denied(ctx, plan, message) -> dict:
    return challenge(ctx, plan, "ak-stage-access-denied", {"error_message": message or "Unknown error"},
                     with_user=True)
