"""What the `keycloak` and `keycloak.v2` themes share: escaping, field
errors, and the WebAuthn pieces every theme takes from the base theme
(passkeys.ftl's hidden `#webauth` form, the `#authn_select` list, the
module scripts that call webauthnAuthenticate.js / webauthnRegister.js).

Two spellings of the script arguments exist in Keycloak's templates: the
newer `${challenge?c}` (a JSON-quoted string) and the older
`'${challenge}'` (single quotes); `quoted` picks one.
"""
import json
from html import escape

from .keycloak_messages import msg


def e(value) -> str:
    """FreeMarker's HTML auto-escaping of ${…}."""
    return escape("" if value is None else str(value), quote=True)


def first_error(m, *fields) -> str:
    """messagesPerField.getFirstError(fields…)."""
    errors = m.get("messagesPerField") or {}
    return next((errors[f] for f in fields if errors.get(f)), "")


def exists_error(m, *fields) -> bool:
    return bool(first_error(m, *fields))


def js(value, quoted="json") -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if quoted == "single":
        return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"
    return json.dumps(str(value)).replace("<", "\\u003C")


def webauth_form(m, hidden=False) -> str:
    """The form webauthnAuthenticate.js fills and submits (passkeys.ftl)."""
    attr = ' hidden="hidden"' if hidden else ""
    fields = "".join(f'\n    <input type="hidden" id="{n}" name="{n}"/>' for n in
                     ("clientDataJSON", "authenticatorData", "signature", "credentialId", "userHandle", "error"))
    return f'<form id="webauth" action="{e(m["url"]["loginAction"])}" method="post"{attr}>{fields}\n</form>'


def authn_select(m, css="", hidden=False) -> str:
    """The allowed credentials, as hidden authn_use_chk inputs."""
    authenticators = (m.get("authenticators") or {}).get("authenticators") or []
    if not authenticators and "authenticators" not in m:
        return ""
    attr = ' hidden="hidden"' if hidden else ""
    items = "".join(f'\n    <input type="hidden" name="authn_use_chk" value="{e(a["credentialId"])}"/>'
                    for a in authenticators)
    return f'<form id="authn_select" class="{css}"{attr}>{items}\n</form>'


def authenticate_script(m, quoted="json", button="authenticateWebAuthnButton") -> str:
    q = quoted
    return f"""<script type="module">
    import {{ authenticateByWebAuthn }} from "{e(m['url']['resourcesPath'])}/js/webauthnAuthenticate.js";
    const authButton = document.getElementById('{button}');
    authButton.addEventListener("click", function() {{
        const input = {{
            isUserIdentified : {m['isUserIdentified']},
            challenge : {js(m['challenge'], q)},
            userVerification : {js(m['userVerification'], q)},
            rpId : {js(m['rpId'], q)},
            createTimeout : {js(m['createTimeout'])},
            errmsg : {js(m['errmsg'])}
        }};
        authenticateByWebAuthn(input);
    }});
</script>"""


def conditional_ui(m, button_class) -> str:
    """passkeys.ftl's conditionalUIData: a passkey on the username page."""
    if not m.get("enableWebAuthnConditionalUI"):
        return ""
    rp = e(m["url"]["resourcesPath"])
    return f"""{webauth_form(m)}
{authn_select(m)}
<script type="module">
    import {{ authenticateByWebAuthn }} from "{rp}/js/webauthnAuthenticate.js";
    import {{ initAuthenticate }} from "{rp}/js/passkeysConditionalAuth.js";
    const args = {{
        isUserIdentified : {m['isUserIdentified']},
        challenge : {js(m['challenge'])},
        userVerification : {js(m['userVerification'])},
        rpId : {js(m['rpId'])},
        createTimeout : {js(m['createTimeout'])},
        mediation : "conditional",
        authenticatorAttachment : "not specified",
    }};
    document.addEventListener("DOMContentLoaded", (event) => initAuthenticate({{errmsg : {js(m['errmsg'])}, ...args}}));
</script>
<a id="authenticateWebAuthnButton" href="#" class="{button_class}">Sign in with Passkey</a>"""


def register_script(m, quoted="json") -> str:
    q = quoted
    algs = "".join(f"{a}," for a in m["signatureAlgorithms"])
    return f"""<script type="module">
    import {{ registerByWebAuthn }} from "{e(m['url']['resourcesPath'])}/js/webauthnRegister.js";
    const registerButton = document.getElementById('registerWebAuthn');
    registerButton.addEventListener("click", function() {{
        const input = {{
            challenge : {js(m['challenge'], q)},
            userid : {js(m['userid'], q)},
            username : {js(m['username'], q)},
            signatureAlgorithms : [{algs}],
            rpEntityName : {js(m['rpEntityName'], q)},
            rpId : {js(m['rpId'], q)},
            attestationConveyancePreference : {js(m['attestationConveyancePreference'], q)},
            authenticatorAttachment : {js(m['authenticatorAttachment'], q)},
            requireResidentKey : {js(m['requireResidentKey'], q)},
            userVerificationRequirement : {js(m['userVerificationRequirement'], q)},
            createTimeout : {js(m['createTimeout'])},
            excludeCredentialIds : {js(m['excludeCredentialIds'], q)},
            initLabel : {js(m['initLabel'])},
            initLabelPrompt : {js(m['initLabelPrompt'])},
            errmsg : {js(m['errmsg'])}
        }};
        registerByWebAuthn(input);
    }},  {{ once: true }});
</script>"""


def register_form(m, group_class, options="") -> str:
    fields = "".join(f'\n        <input type="hidden" id="{n}" name="{n}"/>' for n in
                     ("clientDataJSON", "attestationObject", "publicKeyCredentialId", "authenticatorLabel",
                      "transports", "error"))
    return f"""<form id="register" action="{e(m['url']['loginAction'])}" method="post">
    <div class="{group_class}">{fields}
        {options}
    </div>
</form>"""


def error_credential_form(m, form_class, button) -> str:
    """webauthn-error.ftl: "Try again" posts the execution with isSetRetry."""
    return f"""<script type="text/javascript">
    refreshPage = () => {{
        document.getElementById('isSetRetry').value = 'retry';
        document.getElementById('executionValue').value = {js(m.get('execution', ''), 'single')};
        document.getElementById('kc-error-credential-form').requestSubmit();
    }}
</script>
<form id="kc-error-credential-form" class="{form_class}" action="{e(m['url']['loginAction'])}" method="post">
    <input type="hidden" id="executionValue" name="authenticationExecution"/>
    <input type="hidden" id="isSetRetry" name="isSetRetry"/>
</form>
{button}"""


# ---- sections both themes render alike (base templates) ------------------------------

ICONS = {"success": "fa fa-fw fa-check-circle", "warning": "fa fa-fw fa-exclamation-triangle",
         "error": "fa fa-fw fa-exclamation-circle", "info": "fa fa-fw fa-info-circle"}


def verify_email(m):
    """login-verify-email.ftl: the form section, then the info section."""
    return msg("emailVerifyTitle"), f"""<p class="instruction">{msg('emailVerifyInstruction1', e(m['user']['email']))}</p>""", True


def verify_email_info(m):
    return f"""<p class="instruction">
    {msg('emailVerifyInstruction2')}
    <br/>
    <a href="{e(m['url']['loginAction'])}">{msg('doClickHere')}</a> {msg('emailVerifyInstruction3')}
</p>"""


def totp_steps(m, list_class=""):
    """login-config-totp.ftl's numbered steps (QR or manual mode)."""
    totp = m["totp"]
    apps = "".join(f"<li>{msg(a)}</li>" for a in totp["supportedApplications"])
    if m.get("mode") == "manual":
        step2 = f"""<li>
        <p>{msg('loginTotpManualStep2')}</p>
        <p><span id="kc-totp-secret-key">{e(totp['totpSecretEncoded'])}</span></p>
        <p><a href="{e(totp['qrUrl'])}" id="mode-barcode">{msg('loginTotpScanBarcode')}</a></p>
    </li>
    <li>
        <p>{msg('loginTotpManualStep3')}</p>
        <ul>
            <li id="kc-totp-type">{msg('loginTotpType')}: {msg('loginTotp.totp')}</li>
            <li id="kc-totp-algorithm">{msg('loginTotpAlgorithm')}: SHA1</li>
            <li id="kc-totp-digits">{msg('loginTotpDigits')}: {totp['policy']['digits']}</li>
            <li id="kc-totp-period">{msg('loginTotpInterval')}: {totp['policy']['period']}</li>
        </ul>
    </li>"""
    else:
        step2 = f"""<li>
        <p>{msg('loginTotpStep2')}</p>
        <img id="kc-totp-secret-qr-code" src="data:image/png;base64, {e(totp['totpSecretQrCode'])}" alt="Figure: Barcode"><br/>
        <p><a href="{e(totp['manualUrl'])}" id="mode-manual">{msg('loginTotpUnableToScan')}</a></p>
    </li>"""
    cls = f' class="{list_class}"' if list_class else ""
    return f"""<ol id="kc-totp-settings"{cls}>
    <li>
        <p>{msg('loginTotpStep1')}</p>
        <ul id="kc-totp-supported-apps">{apps}</ul>
    </li>
    {step2}
    <li>
        <p>{msg('loginTotpStep3')}</p>
        <p>{msg('loginTotpStep3DeviceName')}</p>
    </li>
</ol>"""


def totp_mode(m):
    return f'<input type="hidden" id="mode" name="mode" value="{e(m["mode"])}"/>' if m.get("mode") else ""


def page_expired(m):
    return msg("pageExpiredTitle"), f"""<p id="instruction1" class="instruction">
    {msg('pageExpiredMsg1')} <a id="loginRestartLink" href="{e(m['url']['loginRestartFlowUrl'])}">{msg('doClickHere')}</a> .<br/>
    {msg('pageExpiredMsg2')} <a id="loginContinueLink" href="{e(m['url']['loginAction'])}">{msg('doClickHere')}</a> .
</p>""", True


def error(m):
    return msg("errorTitle"), f"""<div id="kc-error-message">
    <p class="instruction">{m['message']['summary']}</p>
</div>""", False


def info(m):
    """info.ftl: the message as the page's header and text (no alert)."""
    summary = m["message"]["summary"]
    return summary, f"""<div id="kc-info-message">
    <p class="instruction">{summary}</p>
</div>""", False


def alert_shown(m, display):
    """template.ftl: the message, unless hidden or a warning during an app-initiated action."""
    message = m.get("message")
    return bool(display and message and not (message["type"] == "warning" and m.get("isAppInitiatedAction")))
