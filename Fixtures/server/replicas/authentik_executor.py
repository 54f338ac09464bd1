"""The flow executor API, /api/v3/flows/executor/<slug>/?query=<the page's query>,
as authentik/flows/views/executor.py runs it.

The plan lives in the session (authentik_session). GET answers the current
stage's challenge; POST (JSON) solves it. A stage that passes makes the
executor answer 302 to the same executor URL (its redirect_with_qs back to
itself), which a client follows with GET for the next challenge; the last
one ends the flow with {"component": "xak-flow-redirect", "to": <next from
the query>}. A stage that denies cancels the plan and answers
ak-stage-access-denied. A plan of another flow in the session is dropped.
POST is JSON only (415 otherwise); a logged-in session must send the CSRF
header (403, authentik_http.Ctx.csrf_failure).
"""
import json
from urllib.parse import parse_qsl

from . import authentik_realm as realm
from . import authentik_stages as stages
from . import authentik_validate as validate
from .authentik_challenges import access_denied, redirect

STAGES = {
    "identification": (stages.identification_get, stages.identification_post, None),
    "password": (stages.password_get, stages.password_post, stages.password_applies),
    "mfa": (validate.get, validate.post, None),
    "user_login": (stages.user_login_get, stages.user_login_post, None),
    "consent": (stages.consent_get, stages.consent_post, None),
    "fulfillment": (stages.fulfillment_get, stages.fulfillment_post, None),
}
FLOWS = (realm.AUTH_FLOW, realm.IMPLICIT_FLOW, realm.EXPLICIT_FLOW)


def plan_authentication(ctx) -> dict:
    context = {}
    if ctx.session.data.get("application_pre"):
        context["application"] = ctx.session.data["application_pre"]
    return {"flow": realm.AUTH_FLOW, "stages": ["identification", "password", "mfa", "user_login"],
            "context": context}


def _body(ctx):
    """The JSON object posted, or None once an error was answered (DRF's parser)."""
    ex = ctx.ex
    ctype = ex.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        ctx.json(415, {"detail": f'Unsupported media type "{ctype}" in request.'})
        return None
    try:
        data = json.loads(ex.body or b"{}")
    except ValueError as exc:
        ctx.json(400, {"detail": f"JSON parse error - {exc}"})
        return None
    return data if isinstance(data, dict) else {}


def executor(ctx, slug):
    ex = ctx.ex
    if slug not in FLOWS:
        return ctx.json(404, {"detail": "Not found."})
    if ex.method not in ("GET", "POST"):
        return ctx.json(405, {"detail": f'Method "{ex.method}" not allowed.'})
    session = ctx.load_session()
    data = None
    if ex.method == "POST":
        if session.user is not None:
            failure = ctx.csrf_failure()
            if failure:
                return ctx.json(403, {"detail": f"CSRF Failed: {failure}"})
        data = _body(ctx)
        if data is None:
            return None
    plan = session.data.get("plan")
    if plan is not None and plan["flow"] != slug:
        session.data.pop("plan", None)
        plan = None
    if plan is None:
        if slug != realm.AUTH_FLOW:
            return ctx.json(200, access_denied(ctx, {"flow": slug, "context": {}}, None))
        plan = session.data["plan"] = plan_authentication(ctx)
    session.data["get"] = dict(parse_qsl(ex.query_params.get("query", ""), keep_blank_values=True))
    return _run(ctx, plan, data)


def _run(ctx, plan, data):
    while plan["stages"]:
        applies = STAGES[plan["stages"][0]][2]
        if applies is None or applies(ctx, plan):
            break
        plan["stages"].pop(0)
    if not plan["stages"]:
        return _flow_done(ctx)
    get, post, _ = STAGES[plan["stages"][0]]
    result = post(ctx, plan, data) if data is not None else get(ctx, plan)
    return _respond(ctx, plan, result)


def _respond(ctx, plan, result):
    kind = result[0]
    if kind == "challenge":
        return ctx.json(200, result[1])
    if kind == "invalid":
        ctx.session.data.pop("plan", None)
        return ctx.json(200, access_denied(ctx, plan, result[1]))
    if kind == "redirect":
        return ctx.json(200, redirect(ctx, result[1]))
    plan["stages"].pop(0)               # stage_ok
    if plan["stages"]:
        return ctx.redirect(ctx.ex.path + ("?" + ctx.ex.query if ctx.ex.query else ""))
    return _flow_done(ctx)


def _flow_done(ctx):
    """Back to `next` of the flow's query (only a path on this server), else the root."""
    target = ctx.session.data.get("get", {}).get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = ctx.root + "/"
    ctx.session.data.pop("plan", None)
    return ctx.json(200, redirect(ctx, target))
