"""The Entra replica's pages: the converged pages, whose whole state is the
`$Config={…};` object a script reads (the page has no form: a browser
without scripts follows the <noscript> refresh to /jsdisabled), the
/jsdisabled page and the "Working..." hidden form. Shapes from Versent/
saml2aws pkg/provider/aad/testdata/{ConvergedSignIn,ConvergedTFA,
KmsiInterrupt,ConvergedProofUpRedirect,HiddenForm}.html (see entra.md)."""
import json

from .replica_kit import esc

TITLES = {"ConvergedSignIn": "Sign in to your account", "ConvergedTFA": "Sign in to your account",
          "KmsiInterrupt": "Sign in to your account", "ConvergedProofUpRedirect": "Sign in to your account",
          "ConvergedError": "Sign in to your account"}
HPG = {"ConvergedSignIn": (1800, 1104), "ConvergedTFA": (2202, 1114), "KmsiInterrupt": (2005, 1115),
       "ConvergedProofUpRedirect": (2000, 1121), "ConvergedError": (2000, 1122)}


def base_config(root, flow, pgid):
    hpgact, hpgid = HPG[pgid]
    return {
        "pgid": pgid, "hpgact": hpgact, "hpgid": hpgid,
        "sFT": flow["ft"], "sFTName": "flowToken", "sCtx": flow["ctx"],
        "canary": flow["canary"], "sCanaryTokenName": "canary", "apiCanary": flow["api_canary"],
        "correlationId": flow["correlation_id"], "sessionId": flow["session_id"],
        "sPOST_Username": flow["user"] or "", "locale": {"mkt": "en-US", "lcid": 1033},
        "urlCdn": "https://aadcdn.msauth.net/shared/1.0/", "urlNoCookies": root + "/cookiesdisabled",
        "fEnableCssAnimation": True, "iSessionPullType": 2, "fUseSameSite": True,
    }


def converged(root, config):
    """A converged page: head, noscript refresh, $Config, an empty body the
    scripts fill."""
    pgid = config["pgid"]
    blob = json.dumps(config, separators=(",", ":")).replace("&", "\\u0026").replace("<", "\\u003c")
    return f"""

<!-- Copyright (C) Microsoft Corporation. All rights reserved. -->
<!DOCTYPE html>
<html dir="ltr" class="" lang="en">
<head>
    <title>{esc(TITLES[pgid])}</title>
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
    <meta http-equiv="X-UA-Compatible" content="IE=edge">
    <meta name="viewport" content="width=device-width, initial-scale=1.0, maximum-scale=2.0, user-scalable=yes">
    <meta http-equiv="Pragma" content="no-cache">
    <meta http-equiv="Expires" content="-1">
    <meta name="PageID" content="{esc(pgid)}" />
    <meta name="SiteID" content="" />
    <meta name="ReqLC" content="1033" />
    <meta name="LocLC" content="en-US" />
    <meta name="format-detection" content="telephone=no" />
    <noscript>
        <meta http-equiv="Refresh" content="0; URL={esc(root)}/jsdisabled" />
    </noscript>
<meta name="robots" content="none" />
<script type="text/javascript">//<![CDATA[
$Config={blob};
//]]></script>
<script type="text/javascript">//<![CDATA[
!function(){{var e=window,r=e.$Debug=e.$Debug||{{}};r.appendLog=function(){{}}}}();
//]]></script>
</head>
<body data-bind="defineGlobals: ServerData, bodyCssClass" class="cb" style="display: none">
    <script type="text/javascript">//<![CDATA[
!function(){{var e=window,t=e.ServerData=e.$Config||{{}};t.loader=t.loader||{{}}}}();
//]]></script>
</body>
</html>"""


def js_disabled(root):
    """Where a browser without scripts lands (<noscript> refresh)."""
    return f"""<!DOCTYPE html>
<html dir="ltr" lang="en">
<head><title>Sign in to your account</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>
<body>
<div class="outer"><div class="middle"><div class="inner">
<div role="heading" aria-level="1" class="row title">We can't sign you in</div>
<div class="row text-body">Your browser is currently set to block JavaScript. You need to allow JavaScript to use this service.</div>
<div class="row text-body">To learn how to allow JavaScript or to find out whether your browser supports JavaScript, check the online help in your web browser.</div>
</div></div></div>
</body>
</html>"""


def hidden_form(action, fields):
    """The "Working..." page that posts itself (form_post answers, WS-Fed)."""
    inputs = "".join(f'<input type="hidden" name="{esc(k)}" value="{esc(v)}" />' for k, v in fields)
    return (f'<html><head><title>Working...</title></head><body><form method="POST" name="hiddenform" '
            f'action="{esc(action)}">{inputs}<noscript><p>Script is disabled. Click Submit to continue.</p>'
            f'<input type="submit" value="Submit" /></noscript></form><script language="javascript">'
            f'document.forms[0].submit();</script></body></html>')
