"""The `keycloak.v2` login theme (PatternFly 5), Keycloak's default since 24.

Written from keycloak/keycloak themes/src/main/resources/theme/keycloak.v2/
login/{template,field,buttons,login,login-username,login-password,login-otp,
select-authenticator,login-oauth-grant,terms,login-update-password,
login-config-totp,webauthn-authenticate,webauthn-register,webauthn-error}.ftl
and its theme.properties; pages the theme does not override come from the
base templates inside this layout. What differs from `keycloak` for a
client: `body#keycloak-bg`, errors in `div#input-error-<field>` (field.ftl's
group macro; login.ftl puts the username/password error under the username),
the OTP device choice as `#kc-otp-credential-N` tiles that set a hidden
`selectedCredentialId`, and the WebAuthn script quoting '${challenge}'.
"""
from .keycloak_messages import advanced_msg, msg
from .keycloak_theme_common import (authenticate_script, authn_select, conditional_ui, e,
                                    error_credential_form, exists_error, first_error,
                                    register_form, register_script, webauth_form,
                                    ICONS, alert_shown, error, info, page_expired, totp_mode, totp_steps,
                                    verify_email, verify_email_info)

GROUP = "pf-v5-c-form__group"
FORM = "pf-v5-c-form"
INPUT = "pf-v5-c-form-control"
ERROR_ITEM = "pf-v5-c-helper-text__item pf-m-error"
ERROR_TEXT = "pf-v5-c-helper-text__item pf-m-error pf-v5-c-form__label-required kc-feedback-text"
PRIMARY = "pf-v5-c-button pf-m-primary pf-m-block"
SECONDARY = "pf-v5-c-button pf-m-secondary pf-m-block"


def _group(name, label, inner, error=""):
    """field.ftl's `group` macro."""
    err = ""
    if error:
        err = f"""
        <div class="pf-v5-c-form__helper-text" aria-live="polite">
            <div class="pf-v5-c-helper-text">
                <div class="{ERROR_ITEM}" id="input-error-{name}">
                    <span class="{ERROR_TEXT}">{error}</span>
                </div>
            </div>
        </div>"""
    return f"""<div class="{GROUP}">
    <div class="pf-v5-c-form__group-label pf-v5-u-pb-xs">
        <label for="{name}" class="pf-v5-c-form__label"><span class="pf-v5-c-form__label-text">{label}</span></label>
    </div>
    {inner}
    <div id="input-error-container-{name}">{err}
    </div>
</div>"""


def _icon(error):
    return ('<span class="pf-v5-c-form-control__utilities"><span class="pf-v5-c-form-control__icon pf-m-status">'
            '<i class="fas fa-exclamation-circle" aria-hidden="true"></i></span></span>') if error else ""


def _input(name, label, value="", error="", autocomplete="off", autofocus=False):
    focus = " autofocus" if autofocus else ""
    cls = f"{INPUT} pf-m-error" if error else INPUT
    inner = f"""<span class="{cls}">
        <input id="{name}" name="{name}" value="{e(value)}" type="text" autocomplete="{autocomplete}"{focus} aria-invalid="{'true' if error else ''}"/>{_icon(error)}
    </span>"""
    return _group(name, label, inner, error)


def _password(name, label, error="", autocomplete="off", autofocus=False):
    focus = " autofocus" if autofocus else ""
    cls = f"{INPUT} pf-m-error" if error else INPUT
    inner = f"""<div class="pf-v5-c-input-group">
        <div class="pf-v5-c-input-group__item pf-m-fill">
            <span class="{cls}">
                <input id="{name}" name="{name}" value="" type="password" autocomplete="{autocomplete}"{focus} aria-invalid="{'true' if error else ''}"/>{_icon(error)}
            </span>
        </div>
        <div class="pf-v5-c-input-group__item">
            <button class="pf-v5-c-button pf-m-control" type="button" aria-label="{msg('showPassword')}" aria-controls="{name}" data-password-toggle data-icon-show="fa-eye fas" data-icon-hide="fa-eye-slash fas" data-label-show="{msg('showPassword')}" data-label-hide="{msg('hidePassword')}" id="{name}-show-password"><i class="fa-eye fas" aria-hidden="true"></i></button>
        </div>
    </div>"""
    return _group(name, label, inner, error)


def _buttons(*buttons):
    """buttons.ftl: actionGroup with submit buttons (id, name, label, class)."""
    inner = "".join(f'\n        <button class="{cls}" name="{name}" id="{ident}" type="submit">{msg(label)}</button>'
                    for ident, name, label, cls in buttons)
    return f'<div class="{GROUP}">\n    <div class="pf-v5-c-form__actions">{inner}\n    </div>\n</div>'


def _login(m):
    login = m.get("login") or {}
    auto = "username webauthn" if m.get("enableWebAuthnConditionalUI") else "username"
    return msg("loginAccountTitle"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" class="{FORM}" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post" novalidate="novalidate">
{_input('username', msg('usernameOrEmail'), login.get('username', ''), first_error(m, 'username', 'password'), auto, True)}
{_password('password', msg('password'), '', 'current-password')}
        <input type="hidden" id="id-hidden-input" name="credentialId"/>
{_buttons(('kc-login', 'login', 'doLogIn', PRIMARY))}
    </form>
  </div>
</div>
{conditional_ui(m, 'pf-v5-c-button pf-m-secondary pf-m-block pf-v5-u-mt-md')}""", not exists_error(m, "username", "password")


def _login_username(m):
    login = m.get("login") or {}
    return msg("loginAccountTitle"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" class="{FORM}" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
{_input('username', msg('usernameOrEmail'), login.get('username', ''), first_error(m, 'username'), 'username', True)}{_error_span(m, 'input-error-username', 'username')}
{_buttons(('kc-login', 'login', 'doLogIn', PRIMARY))}
    </form>
  </div>
</div>
{conditional_ui(m, 'pf-v5-c-button pf-m-secondary pf-m-block pf-v5-u-mt-md')}""", not exists_error(m, "username")


def _login_password(m):
    return msg("doLogIn"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" class="{FORM}" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
{_password('password', msg('password'), first_error(m, 'password'), 'current-password', True)}
{_buttons(('kc-login', 'login', 'doLogIn', PRIMARY))}
    </form>
  </div>
</div>""", not exists_error(m, "password")


def _login_otp(m):
    otp = m["otpLogin"]
    creds = otp["userOtpCredentials"]
    tiles = ""
    if len(creds) > 1:
        items = "".join(f"""
        <div id="kc-otp-credential-{i}" class="pf-v5-c-tile{' pf-m-selected' if c['id'] == otp.get('selectedCredentialId') else ''}" onclick="toggleOTP({i}, '{e(c['id'])}')">
            <span class="pf-v5-c-tile__header"><span class="pf-v5-c-tile__icon"><i class="fa fa-mobile" aria-hidden="true"></i></span>
            <span class="pf-v5-c-tile__title">{e(c['userLabel'])}</span></span>
        </div>""" for i, c in enumerate(creds))
        tiles = f'<div class="{GROUP}">\n    <div>{items}\n    </div>\n</div>'
    return msg("doLogIn"), f"""<form id="kc-otp-login-form" class="{FORM}" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
    <input id="selectedCredentialId" type="hidden" name="selectedCredentialId" value="{e(otp.get('selectedCredentialId', ''))}">
{tiles}
{_input('otp', msg('loginOtpOneTime'), '', first_error(m, 'totp'), 'one-time-code', True)}
{_buttons(('kc-login', 'login', 'doLogIn', PRIMARY))}
</form>
<script>
    function toggleOTP(index, value) {{
        document.getElementById("selectedCredentialId").value = value;
        Array.from(document.getElementsByClassName("pf-m-selected")).map(i => i.classList.remove("pf-m-selected"));
        document.getElementById("kc-otp-credential-" + index).classList.add("pf-m-selected");
    }}
</script>""", not exists_error(m, "totp")


def _select_authenticator(m):
    items = "".join(f"""
    <li class="pf-v5-c-data-list__item">
        <form id="kc-select-credential-form" class="{FORM}" action="{e(m['url']['loginAction'])}" method="post">
            <input type="hidden" name="authenticationExecution" value="{e(s['authExecId'])}">
        </form>
        <div role="button" class="pf-v5-c-data-list__item-row select-auth-box-parent" onclick="document.forms[{i}].requestSubmit()" tabindex="0">
            <div class="pf-v5-c-data-list__item-content">
                <div class="pf-v5-c-data-list__cell select-auth-box-icon"><i class="{e(s['iconCssClass'])}"></i></div>
                <div class="pf-v5-c-data-list__cell"><h2 class="pf-v5-c-data-list__cell select-auth-box-headline pf-v5-c-title">{msg(s['displayName'])}</h2></div>
                <div class="pf-v5-c-data-list__cell select-auth-box-desc">{msg(s['helpText'])}</div>
            </div>
            <div class="pf-v5-c-data-list__item-action"><i class="fas fa-angle-right" aria-hidden="true"></i></div>
        </div>
    </li>""" for i, s in enumerate(m["auth"]["authenticationSelections"]))
    return msg("loginChooseAuthenticator"), f'<ul class="pf-v5-c-data-list select-auth-container" role="list">{items}\n</ul>', True


def _webauthn_authenticate(m):
    listed = ""
    if m.get("shouldDisplayAuthenticators"):
        rows = "".join(f"""
        <li class="pf-v5-c-data-list__item">
            <div id="kc-webauthn-authenticator-item-{i}" class="pf-v5-c-data-list__item-row select-auth-box-parent">
                <div id="kc-webauthn-authenticator-label-{i}" class="select-auth-box-headline pf-v5-c-title">{e(a['label'])}</div>
                <span id="kc-webauthn-authenticator-createdlabel-{i}"><i>{msg('webauthn-createdAt-label')}</i></span>
                <span id="kc-webauthn-authenticator-created-{i}"><i>{e(a['createdAt'])}</i></span>
            </div>
        </li>""" for i, a in enumerate(m["authenticators"]["authenticators"]))
        listed = f'\n<ul class="pf-v5-c-data-list select-auth-container" role="list">{rows}\n</ul>'
    return msg("webauthn-login-title"), f"""<div id="kc-form-webauthn" class="{FORM}">
{webauth_form(m, hidden=True)}
{authn_select(m, FORM, hidden=True)}{listed}
{_buttons(('authenticateWebAuthnButton', '', 'webauthn-doAuthenticate', PRIMARY)).replace('type="submit"', 'type="button"')}
</div>
{authenticate_script(m, quoted='single')}""", True


def _logout_other_sessions():
    return """<div class="pf-v5-c-check">
        <input class="pf-v5-c-check__input" type="checkbox" id="logout-sessions" name="logout-sessions" value="on" checked>
        <label class="pf-v5-c-check__label" for="logout-sessions">Sign out from other devices</label>
    </div>"""


def _webauthn_register(m):
    return msg("webauthn-registration-title"), f"""<div class="{FORM}">
{register_form(m, GROUP, _logout_other_sessions())}
{register_script(m)}
{_buttons(('registerWebAuthn', '', 'doRegisterSecurityKey', PRIMARY)).replace('type="submit"', 'type="button"')}
</div>""", True


def _webauthn_error(m):
    button = (f'<button class="{PRIMARY}" name="try-again" id="kc-try-again" type="button" '
              f'onclick="refreshPage()">{msg("doTryAgain")}</button>')
    return msg("webauthn-error-title"), error_credential_form(m, FORM, button), True


def _oauth_grant(m):
    oauth = m["oauth"]
    scopes = "".join(f"\n        <li><span>{advanced_msg(s['consentScreenText'])}</span></li>" for s in oauth["clientScopesRequested"])
    return f"<p>{msg('oauthGrantTitle', e(oauth['client']))}</p>", f"""<div id="kc-oauth" class="content-area">
    <h3>{msg('oauthGrantRequest')}</h3>
    <ul class="pf-v5-c-list">{scopes}
    </ul>
    <form class="{FORM} pf-v5-u-mt-md" action="{e(m['url']['oauthAction'])}" method="POST">
        <input type="hidden" name="code" value="{e(oauth['code'])}">
{_buttons(('kc-login', 'accept', 'doYes', PRIMARY), ('kc-cancel', 'cancel', 'doNo', SECONDARY))}
    </form>
</div>""", True


def _terms(m):
    return msg("termsTitle"), f"""<div class="pf-v5-c-form__group">
    {msg('termsText')}
</div>
<form class="{FORM}" action="{e(m['url']['loginAction'])}" method="POST">
{_buttons(('kc-accept', 'accept', 'doAccept', PRIMARY), ('kc-decline', 'cancel', 'doDecline', SECONDARY))}
</form>
<div class="clearfix"></div>""", False


def _error_span(m, ident, *fields):
    text = first_error(m, *fields)
    return f'\n    <span id="{ident}" class="{ERROR_TEXT}" aria-live="polite">{text}</span>' if text else ""


def _update_password(m):
    groups = ""
    for name, label, err_id, field in (("password-new", "passwordNew", "input-error-password", "password"),
                                       ("password-confirm", "passwordConfirm", "input-error-password-confirm",
                                        "password-confirm")):
        focus = " autofocus" if name == "password-new" else ""
        groups += f"""<div class="{GROUP}">
    <label for="{name}" class="pf-v5-c-form__label"><span class="pf-v5-c-form__label-text">{msg(label)}</span></label>
    <div class="pf-v5-c-input-group">
        <span class="{INPUT}"><input type="password" id="{name}" name="{name}"{focus} autocomplete="new-password" aria-invalid="{'true' if exists_error(m, field) else ''}"/></span>
    </div>{_error_span(m, err_id, field)}
</div>
"""
    return msg("updatePasswordTitle"), f"""<form id="kc-passwd-update-form" class="{FORM}" action="{e(m['url']['loginAction'])}" method="post">
{groups}<div class="{GROUP}">{_logout_other_sessions()}</div>
<div id="kc-form-buttons" class="{GROUP} pf-m-action">
    <div class="pf-v5-c-form__actions">
        <input class="pf-v5-c-button pf-m-primary pf-m-block" type="submit" value="{msg('doSubmit')}"/>
    </div>
</div>
</form>""", not exists_error(m, "password", "password-confirm")


def _update_profile(m):
    groups = ""
    for a in m["profile"]["attributes"]:
        name = a["name"]
        disabled = " disabled" if a.get("readOnly") else ""
        inner = (f'<span class="{INPUT}"><input type="text" id="{name}" name="{name}" value="{e(a.get("value", ""))}"'
                 f'{disabled} aria-invalid="{"true" if exists_error(m, name) else ""}"/></span>')
        groups += _group(name, msg(a["displayName"]), inner, first_error(m, name)) + "\n"
    return msg("loginProfileTitle"), f"""<form id="kc-update-profile-form" class="{FORM}" action="{e(m['url']['loginAction'])}" method="post">
{groups}<div class="{GROUP}">
    <div class="pf-v5-c-form__actions">
        <input class="pf-v5-c-button pf-m-primary pf-m-block" type="submit" value="{msg('doSubmit')}"/>
    </div>
</div>
</form>""", True


def _config_totp(m):
    totp = m["totp"]
    return msg("loginTotpTitle"), f"""{totp_steps(m, "pf-v5-c-list pf-v5-u-mb-md")}
<form action="{e(m['url']['loginAction'])}" class="{FORM}" id="kc-totp-settings-form" method="post" novalidate="novalidate">
    <div class="{GROUP}">
        <div class="pf-v5-c-form__label"><label class="pf-v5-c-form__label" for="form-vertical-name"><span class="pf-v5-c-form__label-text">{msg('authenticatorCode')}</span></label></div>
        <div class="{INPUT}"><input type="text" required id="totp" name="totp" autocomplete="off" aria-invalid="{'true' if exists_error(m, 'totp') else ''}"/></div>{_error_span(m, 'input-error-otp-code', 'totp')}
        <input type="hidden" id="totpSecret" name="totpSecret" value="{e(totp['totpSecret'])}" />
        {totp_mode(m)}
    </div>
    <div class="{GROUP}">
        <div class="pf-v5-c-form__label"><label class="pf-v5-c-form__label" for="form-vertical-name"><span class="pf-v5-c-form__label-text">{msg('loginTotpDeviceName')}</span></label></div>
        <div class="{INPUT}"><input type="text" id="userLabel" name="userLabel" autocomplete="off"/></div>{_error_span(m, 'input-error-otp-label', 'userLabel')}
    </div>
    <div class="{GROUP}">{_logout_other_sessions()}</div>
    <div class="pf-v5-c-form__group pf-m-action">
        <div class="pf-v5-c-form__actions">
            <input type="submit" class="pf-v5-c-button pf-m-primary pf-m-block" id="saveTOTPBtn" value="{msg('doSubmit')}"/>
        </div>
    </div>
</form>""", not exists_error(m, "totp", "userLabel")


PAGES = {
    "login.ftl": _login, "login-username.ftl": _login_username, "login-password.ftl": _login_password,
    "login-otp.ftl": _login_otp, "select-authenticator.ftl": _select_authenticator,
    "webauthn-authenticate.ftl": _webauthn_authenticate, "webauthn-register.ftl": _webauthn_register,
    "webauthn-error.ftl": _webauthn_error, "login-oauth-grant.ftl": _oauth_grant, "terms.ftl": _terms,
    "login-update-password.ftl": _update_password, "login-update-profile.ftl": _update_profile,
    "login-verify-email.ftl": verify_email, "login-config-totp.ftl": _config_totp,
    "login-page-expired.ftl": page_expired, "error.ftl": error, "info.ftl": info,
}
INFO = {"login-verify-email.ftl": verify_email_info}


def _alert(m, display):
    if not alert_shown(m, display):
        return ""
    message = m["message"]
    kind = message["type"]
    level = "danger" if kind == "error" else kind
    return f"""<div class="pf-v5-c-alert pf-m-inline pf-m-{level}">
    <div class="pf-v5-c-alert__icon"><span class="{ICONS[kind]}"></span></div>
    <span class="pf-v5-c-alert__title kc-feedback-text">{message['summary']}</span>
</div>
"""


def _username_box(m):
    auth = m.get("auth") or {}
    if not (auth.get("showUsername") and not auth.get("showResetCredentials")):
        return ""
    inner = f"""<div class="pf-v5-c-input-group">
        <div class="pf-v5-c-input-group__item pf-m-fill">
            <span class="{INPUT} pf-m-readonly"><input id="kc-attempted-username" value="{e(auth.get('attemptedUsername', ''))}" readonly></span>
        </div>
        <div class="pf-v5-c-input-group__item">
            <button id="reset-login" class="pf-v5-c-button pf-m-control kc-login-tooltip" type="button" aria-label="{msg('restartLoginTooltip')}" onclick="location.href='{e(m['url']['loginRestartFlowUrl'])}'">
                <i class="fa-sync-alt fas" aria-hidden="true"></i><span class="kc-tooltip-text">{msg('restartLoginTooltip')}</span>
            </button>
        </div>
    </div>"""
    return f'<div class="{FORM}">\n{_group("username", msg("usernameOrEmail"), inner)}\n</div>\n'


def _try_another_way(m):
    if not (m.get("auth") or {}).get("showTryAnotherWayLink"):
        return ""
    return f"""<form id="kc-select-try-another-way-form" action="{e(m['url']['loginAction'])}" method="post" novalidate="novalidate">
    <input type="hidden" name="tryAnotherWay" value="on"/>
    <a id="try-another-way" href="javascript:document.forms['kc-select-try-another-way-form'].requestSubmit()" class="pf-v5-c-button pf-m-secondary pf-m-block pf-v5-u-mt-md">{msg('doTryAnotherWay')}</a>
</form>
"""


def render(m) -> str:
    title, form, display_message = PAGES[m["pageId"]](m)
    info = INFO.get(m["pageId"])
    info_html = f'<div id="kc-info" class="pf-v5-c-login__main-footer-band"><div id="kc-info-wrapper" class="pf-v5-c-login__main-footer-band-item">{info(m)}</div></div>' if info else ""
    rp, rcp = e(m["url"]["resourcesPath"]), e(m["url"]["resourcesCommonPath"])
    sso = e(m["url"].get("ssoLoginInOtherTabsUrl", ""))
    checker = ""
    if m.get("authenticationSession"):
        checker = f"""<script type="module">
        import {{ checkAuthSession }} from "{rp}/js/authChecker.js";
        checkAuthSession("{m['authenticationSession']['authSessionIdHash']}");
    </script>"""
    return f"""<!DOCTYPE html>
<html class="pf-v5-c-login" lang="en">
<head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
    <meta name="robots" content="noindex, nofollow">
    <meta name="color-scheme" content="light dark">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>{msg('loginTitle', e(m['realm']['displayName']))}</title>
    <link rel="icon" href="{rp}/img/favicon.ico" />
    <link href="{rcp}/vendor/patternfly-v5/patternfly.min.css" rel="stylesheet" />
    <link href="{rcp}/vendor/patternfly-v5/patternfly-addons.css" rel="stylesheet" />
    <link href="{rp}/css/styles.css" rel="stylesheet" />
    <script type="importmap">
        {{ "imports": {{ "rfc4648": "{rcp}/vendor/rfc4648/rfc4648.js" }} }}
    </script>
    <script type="module" async blocking="render">
        const DARK_MODE_CLASS = "pf-v5-theme-dark";
        const mediaQuery = window.matchMedia("(prefers-color-scheme: dark)");
        updateDarkMode(mediaQuery.matches);
        mediaQuery.addEventListener("change", (event) => updateDarkMode(event.matches));
        function updateDarkMode(isEnabled) {{
            const {{ classList }} = document.documentElement;
            if (isEnabled) {{ classList.add(DARK_MODE_CLASS); }} else {{ classList.remove(DARK_MODE_CLASS); }}
        }}
    </script>
    <script type="module" src="{rp}/js/passwordVisibility.js"></script>
    <script type="module">
        import {{ startSessionPolling }} from "{rp}/js/authChecker.js";
        startSessionPolling("{sso}");
    </script>
    {checker}
</head>
<body id="keycloak-bg" class="">
<div class="pf-v5-c-login">
  <div class="pf-v5-c-login__container">
    <header id="kc-header" class="pf-v5-c-login__header">
      <div id="kc-header-wrapper" class="pf-v5-c-brand">{e(m['realm']['displayNameHtml'])}</div>
    </header>
    <main class="pf-v5-c-login__main">
      <div class="pf-v5-c-login__main-header">
        <h1 class="pf-v5-c-title pf-m-3xl" id="kc-page-title">{title}</h1>
      </div>
      <div class="pf-v5-c-login__main-body">
{_username_box(m)}{_alert(m, display_message)}{form}
{_try_another_way(m)}{info_html}
      </div>
      <div class="pf-v5-c-login__main-footer">
      </div>
    </main>
  </div>
</div>
</body>
</html>
"""
