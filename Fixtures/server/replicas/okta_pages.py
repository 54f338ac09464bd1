"""The Okta-hosted sign-in page, as a headless client meets it: no form,
only the Sign-In Widget's scripts and the configuration the org renders into
the page, with every string JavaScript-escaped (okta_http.js_escape).

Two shapes of where the state token sits, both read by saml2aws
(pkg/provider/okta/okta.go, getStateTokenFromOktaPageBody, and its tests):
- "oktaData" (default): `var oktaData = {…"signIn":{…"stateToken":"…"}}`,
  which the widget reads as window.oktaData.signIn.stateToken
  (okta-signin-widget src/widget/OktaSignIn.ts);
- "var": `var stateToken = '…';`, the older pages (run config
  `okta_page_shape: "var"`).
The text and markup around them are our own. Classic and Identity Engine
pages look alike (a client tells them apart by what the org's API answers).
"""
import json
from html import escape

from .okta_http import js_escape

ORG_NAME = "Replica Org"


def _json_js(obj) -> str:
    """A JSON object literal whose strings are JS-escaped like Okta's."""
    if isinstance(obj, dict):
        return "{" + ",".join(f'"{js_escape(k)}":{_json_js(v)}' for k, v in obj.items()) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(_json_js(v) for v in obj) + "]"
    if isinstance(obj, str):
        return '"' + js_escape(obj) + '"'
    return json.dumps(obj)


def widget_page(base: str, state_token: str, shape: str, relay_state: str = "") -> str:
    """The sign-in page of an org at `base` holding `state_token`."""
    sign_in = {
        "baseUrl": base, "logoText": ORG_NAME + " logo", "brandName": ORG_NAME,
        "stateToken": state_token, "relayState": relay_state,
        "features": {"rememberMe": True, "selfServiceUnlock": True, "multiOptionalFactorEnroll": True},
        "i18n": {"en": {"primaryauth.title": "Sign In"}},
    }
    if shape == "var":
        config = (f"var stateToken = '{js_escape(state_token)}';\n"
                  f"var baseUrl = '{js_escape(base)}';\n"
                  f"var fromUri = '{js_escape(relay_state)}';")
    else:
        config = "var oktaData = " + _json_js({
            "redirectUri": base + "/app/UserHome", "isMobileSso": False, "fromUri": relay_state,
            "isMobileClientLogin": False, "signIn": sign_in}) + ";"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex,nofollow">
<title>{escape(ORG_NAME)} - Sign In</title>
<link href="{escape(base)}/assets/css/okta-sign-in.min.css" rel="stylesheet" type="text/css">
<script src="{escape(base)}/assets/js/okta-sign-in.min.js" type="text/javascript"></script>
</head>
<body class="auth okta-container">
<noscript><p>This sign-in page needs JavaScript. Turn it on in your browser and reload.</p></noscript>
<div id="okta-login-container"></div>
<script type="text/javascript">
{config}
</script>
<script type="text/javascript">
var config = OktaUtil.getSignInWidgetConfig();
var oktaSignIn = new OktaSignIn(config);
oktaSignIn.renderEl({{ el: '#okta-login-container' }}, OktaUtil.completeLogin,
  function (error) {{ console.log(error); }});
</script>
</body>
</html>
"""


def error_page(title: str, message: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(ORG_NAME)} - {escape(title)}</title></head>
<body class="auth okta-container"><div class="content"><h1>{escape(title)}</h1>
<p class="o-form-explain">{escape(message)}</p></div></body></html>
"""
