"""Classic Login's documents: the hosted login page (the Lock widget and the
tenant's configuration as base64 JSON in `window.atob('…')`), the client
file Lock loads (`<cdn>/client/<client_id>.js`: `Auth0.setClient({…})`)
and the form `/usernamepassword/login` answers (`wa`, `wresult`, `wctx`
posted to `/login/callback`). Shapes from saml2aws pkg/provider/auth0
(auth0.go: the two regexes and what it reads; auth0_test.go) and auth0.js
src/web-auth/username-password.js (the answer is a form the page submits);
markup and wording are our own.

Two shapes of the configuration (run config `auth0_lock_config`):
- "nested" (default): `state`, `_csrf`, `_intstate` inside `extraParams`
  and `internalOptions`, as the dashboard's default Lock page reads them
  (auth0.md: recalled, unconfirmed);
- "flat": `state` and `_csrf` at the top level, as saml2aws reads them.
"""
import base64
import json
from html import escape

from .auth0_oauth import TENANT
from .auth0_users import CONNECTION


def config_object(root: str, tx, csrf: str, shape: str) -> dict:
    pending = tx.pending
    params = {"protocol": "oauth2", "scope": pending.scope, "response_type": "code",
              "nonce": pending.nonce or "", "_csrf": csrf, "_intstate": "deprecated", "state": tx.state}
    out = {"icon": root + "/img/logo.png", "assetsUrl": "", "auth0Domain": root.split("://", 1)[1],
           "auth0Tenant": TENANT, "clientConfigurationBaseUrl": root + "/", "callbackOnLocationHash": False,
           "callbackURL": pending.redirect_uri, "cdn": root + "/", "clientID": pending.client_id,
           "dict": {"signin": {"title": TENANT}}, "extraParams": params, "internalOptions": dict(params),
           "widgetUrl": root + "/js/lock/11.35/lock.min.js", "isThirdPartyClient": False,
           "authorizationServer": {"url": root + "/", "issuer": root + "/"}}
    if shape == "flat":
        for key in ("extraParams", "internalOptions"):
            del out[key]
        out.update({"state": tx.state, "_csrf": csrf, "_intstate": "deprecated",
                    "protocol": "oauth2", "scope": pending.scope, "response_type": "code"})
    return out


def login_page(root: str, tx, csrf: str, shape: str) -> str:
    blob = base64.b64encode(json.dumps(config_object(root, tx, csrf, shape)).encode()).decode()
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign In with Auth0</title></head>
<body>
<noscript>This sign-in page needs JavaScript.</noscript>
<script src="{escape(root)}/js/lock/11.35/lock.min.js"></script>
<script>
  // The tenant's settings for this transaction.
  var config = JSON.parse(decodeURIComponent(escape(window.atob('{blob}'))));
  var params = config.internalOptions || {{}};
  var lock = new Auth0Lock(config.clientID, config.auth0Domain, {{
    auth: {{ redirectUrl: config.callbackURL, responseType: 'code', params: params }},
    configurationBaseUrl: config.clientConfigurationBaseUrl,
    overrides: {{ __tenant: config.auth0Tenant, __token_issuer: config.authorizationServer.issuer }},
    assetsUrl: config.assetsUrl,
    languageDictionary: config.dict && config.dict.signin
  }});
  lock.show();
</script>
</body>
</html>
"""


def client_js(root: str, client_id: str) -> str:
    connection = {"name": CONNECTION, "forgot_password_url": root + "/lo/forgot?wtrealm=urn:auth0:" + TENANT,
                  "signup_url": root + "/lo/signup?wtrealm=urn:auth0:" + TENANT, "passwordPolicy": "good",
                  "showSignup": True, "showForgot": True, "requires_username": True}
    client = {"id": client_id, "tenant": TENANT, "subscription": "free", "authorize": root + "/authorize",
              "callback": root + "/login/callback", "hasAllowedOrigins": True,
              "strategies": [{"name": "auth0", "connections": [connection]}]}
    return "Auth0.setClient(" + json.dumps(client, separators=(",", ":")) + ");"


def callback_form(root: str, wresult: str, wctx: dict) -> str:
    ctx = json.dumps(wctx, separators=(",", ":"))
    return f"""<form method="post" name="hiddenform" action="{escape(root)}/login/callback">
    <input type="hidden" name="wa" value="wsignin1.0">
    <input type="hidden" name="wresult" value="{escape(wresult)}">
    <input type="hidden" name="wctx" value="{escape(ctx)}">
    <noscript>
        <p>Script is disabled. Click Submit to continue.</p><input type="submit" value="Submit">
    </noscript>
</form>"""
