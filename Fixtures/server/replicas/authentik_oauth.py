"""The OAuth2 provider's views and the pages around the flow executor.

- application/o/<slug>/.well-known/openid-configuration: issuer
  <root>/application/o/<slug>/ (with its trailing slash, as authentik's);
  no jwks_uri (the replica's codes are redeemed at the fixture's shared
  token endpoint, HS256 id_tokens) and no RFC 9207 `iss` (authentik's
  answer has code and state only).
- application/o/authorize/: the request checked by authorize.validate; a
  signed-out session → 302 to the default authentication view with
  `next` (Django's redirect_to_login; the application remembered for the
  identification stage); signed in → the authorization flow planned in the
  session (consent if explicit, then the fulfillment) and 302 to its
  interface page with the request's query.
- flows/-/default/authentication/: 302 to if/flow/default-authentication-flow/
  with the same query (ToDefaultFlow).
- if/flow/<slug>/: the flow interface page (`<ak-flow-executor slug>`, the
  page's script then talks to the executor API); sets `authentik_csrf`.
- flows/-/cancel/: drops the plan, back to the authentication flow.
"""
from html import escape
from urllib.parse import urlencode

from authorize import validate

from . import authentik_realm as realm


def discovery(ctx):
    base = f"{ctx.base}{ctx.root}/application/o"
    ctx.json(200, {
        "issuer": ctx.issuer,
        "authorization_endpoint": base + "/authorize/",
        "token_endpoint": base + "/token/",
        "response_types_supported": ["code", "id_token", "id_token token", "code token", "code id_token",
                                     "code id_token token"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["HS256"],
        "scopes_supported": ["openid", "email", "profile", "offline_access"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "request_parameter_supported": False,
    })


def _permissions(scope: str) -> list:
    """Consent entries: the scope mappings with a description (blueprints/system/providers-oauth2.yaml)."""
    described = {"email": "Email address", "profile": "General Profile Information"}
    return [{"id": s, "name": described[s]} for s in scope.split() if s in described]


def authorize(ctx):
    ex = ctx.ex
    pending = validate(ex)
    if pending is None:
        return None
    session = ctx.load_session()
    full_path = ex.path + ("?" + ex.query if ex.query else "")
    if session.user is None:
        session.data["application_pre"] = realm.APP_NAME
        return ctx.redirect(f"{ctx.root}/flows/-/default/authentication/?" + urlencode({"next": full_path}, safe="/"))
    slug = realm.EXPLICIT_FLOW if ctx.settings.consent else realm.IMPLICIT_FLOW
    session.data["plan"] = {
        "flow": slug,
        "stages": (["consent"] if ctx.settings.consent else []) + ["fulfillment"],
        "context": {"application": realm.APP_NAME, "pending_user": session.user, "params": pending,
                    "consent_permissions": _permissions(pending.scope),
                    "consent_header": f"You're about to sign into {realm.APP_NAME}."},
    }
    return ctx.redirect(f"{ctx.root}/if/flow/{slug}/" + ("?" + ex.query if ex.query else ""))


def default_authentication(ctx):
    session = ctx.load_session(create=False)
    if session is not None and (session.data.get("plan") or {}).get("flow") not in (None, realm.AUTH_FLOW):
        session.data.pop("plan", None)
    query = ctx.ex.query
    return ctx.redirect(f"{ctx.root}/if/flow/{realm.AUTH_FLOW}/" + ("?" + query if query else ""))


def cancel(ctx):
    session = ctx.load_session(create=False)
    if session is not None:
        session.data.pop("plan", None)
    return ctx.redirect(f"{ctx.root}/if/flow/{realm.AUTH_FLOW}/")


def interface(ctx, slug):
    """authentik/flows/templates/if/flow.html in brief: the shell and its custom elements."""
    ctx.set_csrf_cookie()
    static = f"{ctx.root}/static/dist"
    ctx.html(200, f"""<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
    <title>authentik</title>
    <link rel="prefetch" href="{static}/assets/images/flow_background.jpg" />
    <script data-id="flow-config">
        "use strict";
        window.authentik = window.authentik || {{}};
        window.authentik.flow = {{ "layout": "stacked" }};
    </script>
    <link rel="stylesheet" type="text/css" href="{static}/styles/static.css" />
    <script src="{static}/flow/FlowInterface.js" type="module"></script>
</head>
<body>
<ak-skip-to-content></ak-skip-to-content>
<ak-message-container></ak-message-container>
<ak-locale-context>
    <div class="pf-c-page__drawer">
        <div class="pf-c-drawer pf-m-collapsed" id="flow-drawer">
            <div class="pf-c-drawer__main">
                <div class="pf-c-drawer__content">
                    <div class="pf-c-drawer__body">
                        <ak-flow-executor slug="{escape(slug)}" class="pf-c-login" data-layout="stacked">
                            <ak-loading></ak-loading>
                        </ak-flow-executor>
                    </div>
                </div>
            </div>
        </div>
    </div>
</ak-locale-context>
</body>
</html>
""")
