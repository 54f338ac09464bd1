"""The `keycloak` login theme (Keycloak's base templates, PatternFly 4 classes).

Written from keycloak/keycloak themes/src/main/resources/theme/base/login/
{template,login,login-username,login-password,login-otp,select-authenticator,
login-oauth-grant,terms,login-update-password,login-update-profile,
login-verify-email,login-config-totp,login-page-expired,error,
webauthn-authenticate,webauthn-register,webauthn-error}.ftl as the newest
Keycloak renders them (keycloakify's src/login/Template.tsx and pages/*.tsx
port the same templates and were read alongside); the class names are the
`keycloak` theme's theme.properties values (keycloakify src/login/lib/kcClsx.ts
lists them). Field errors: `span#input-error` under the username of
login.ftl, `#input-error-<field>` elsewhere, class `kc-feedback-text`.
"""
from .keycloak_messages import advanced_msg, msg
from .keycloak_theme_common import (authenticate_script, authn_select, conditional_ui, e,
                                    error_credential_form, exists_error, first_error,
                                    register_form, register_script, webauth_form,
                                    ICONS, alert_shown, error, info, page_expired, totp_mode, totp_steps,
                                    verify_email, verify_email_info)

GROUP = "form-group"
LABEL = "pf-c-form__label pf-c-form__label-text"
INPUT = "pf-c-form-control"
ERROR = "pf-c-form__helper-text pf-m-error required kc-feedback-text"
PRIMARY = "pf-c-button pf-m-primary pf-m-block btn-lg"
PRIMARY_INLINE = "pf-c-button pf-m-primary btn-lg"
DEFAULT = "pf-c-button btn-default btn-lg"


def _error_span(m, ident, *fields):
    text = first_error(m, *fields)
    return f'\n    <span id="{ident}" class="{ERROR}" aria-live="polite">{text}</span>' if text else ""


def _password_input(name, tabindex, autocomplete, invalid, autofocus=False):
    focus = " autofocus" if autofocus else ""
    aria = ' aria-invalid="true"' if invalid else ""
    return f"""<div class="pf-c-input-group">
        <input tabindex="{tabindex}" id="{name}" class="{INPUT}" name="{name}" type="password" autocomplete="{autocomplete}"{focus}{aria}/>
        <button class="pf-c-button pf-m-control" type="button" aria-label="{msg('showPassword')}" aria-controls="{name}" data-password-toggle data-icon-show="fa fa-eye" data-icon-hide="fa fa-eye-slash" data-label-show="{msg('showPassword')}" data-label-hide="{msg('hidePassword')}"><i class="fa fa-eye" aria-hidden="true"></i></button>
    </div>"""


def _username_group(m, error_fields, error_id="input-error"):
    login = m.get("login") or {}
    invalid = ' aria-invalid="true"' if exists_error(m, *error_fields) else ""
    auto = "username webauthn" if m.get("enableWebAuthnConditionalUI") else "username"
    return f"""<div class="{GROUP}">
    <label for="username" class="{LABEL}">{msg('usernameOrEmail')}</label>
    <input tabindex="2" id="username" class="{INPUT}" name="username" value="{e(login.get('username', ''))}" type="text" autofocus autocomplete="{auto}"{invalid}/>{_error_span(m, error_id, *error_fields)}
</div>"""


def _login(m):
    pw_invalid = exists_error(m, "username", "password")
    return msg("loginAccountTitle"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
{_username_group(m, ("username", "password"))}
<div class="{GROUP}">
    <label for="password" class="{LABEL}">{msg('password')}</label>
    {_password_input('password', 3, 'current-password', pw_invalid)}
</div>
<div class="{GROUP} login-pf-settings">
    <div id="kc-form-options"></div>
    <div></div>
</div>
<div id="kc-form-buttons" class="{GROUP}">
    <input type="hidden" id="id-hidden-input" name="credentialId"/>
    <input tabindex="7" class="{PRIMARY}" name="login" id="kc-login" type="submit" value="{msg('doLogIn')}"/>
</div>
    </form>
  </div>
</div>
{conditional_ui(m, 'pf-c-button btn-default pf-m-block btn-lg')}""", not exists_error(m, "username", "password")


def _login_username(m):
    return msg("loginAccountTitle"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
{_username_group(m, ("username",))}
<div class="{GROUP} login-pf-settings">
    <div id="kc-form-options"></div>
</div>
<div id="kc-form-buttons" class="{GROUP}">
    <input tabindex="4" class="{PRIMARY}" name="login" id="kc-login" type="submit" value="{msg('doLogIn')}"/>
</div>
    </form>
  </div>
</div>
{conditional_ui(m, 'pf-c-button btn-default pf-m-block btn-lg')}""", not exists_error(m, "username")


def _login_password(m):
    return msg("doLogIn"), f"""<div id="kc-form">
  <div id="kc-form-wrapper">
    <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="{e(m['url']['loginAction'])}" method="post">
<div class="{GROUP} no-bottom-margin">
    <hr/>
    <label for="password" class="{LABEL}">{msg('password')}</label>
    {_password_input('password', 2, 'on', exists_error(m, 'password'), autofocus=True)}{_error_span(m, 'input-error-password', 'password')}
</div>
<div id="kc-form-buttons" class="{GROUP}">
    <input tabindex="4" class="{PRIMARY}" name="login" id="kc-login" type="submit" value="{msg('doLogIn')}"/>
</div>
    </form>
  </div>
</div>""", not exists_error(m, "password")


def _login_otp(m):
    otp = m["otpLogin"]
    creds = otp["userOtpCredentials"]
    choices = ""
    if len(creds) > 1:
        items = "".join(f"""
        <input id="kc-otp-credential-{i}" class="pf-c-tile__input" type="radio" name="selectedCredentialId" value="{e(c['id'])}"{' checked="checked"' if c['id'] == otp.get('selectedCredentialId') else ''}>
        <label for="kc-otp-credential-{i}" class="pf-c-tile" tabindex="{i}">
            <span class="pf-c-tile__header"><span class="pf-c-tile__icon"><i class="fa fa-mobile" aria-hidden="true"></i></span>
            <span class="pf-c-tile__title">{e(c['userLabel'])}</span></span>
        </label>""" for i, c in enumerate(creds))
        choices = f'<div class="{GROUP}">\n    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">{items}\n    </div>\n</div>'
    invalid = ' aria-invalid="true"' if exists_error(m, "totp") else ""
    return msg("doLogIn"), f"""<form id="kc-otp-login-form" class="form-horizontal" action="{e(m['url']['loginAction'])}" method="post">
{choices}
<div class="{GROUP}">
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><label for="otp" class="{LABEL}">{msg('loginOtpOneTime')}</label></div>
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        <input id="otp" name="otp" autocomplete="off" type="text" class="{INPUT}" autofocus{invalid}/>{_error_span(m, 'input-error-otp-code', 'totp')}
    </div>
</div>
<div class="{GROUP}">
    <div id="kc-form-options" class="col-xs-12 col-sm-12 col-md-12 col-lg-12"></div>
    <div id="kc-form-buttons" class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        <input class="{PRIMARY}" name="login" id="kc-login" type="submit" value="{msg('doLogIn')}"/>
    </div>
</div>
</form>""", not exists_error(m, "totp")


def _select_authenticator(m):
    items = "".join(f"""
        <button class="pf-l-stack__item select-auth-box-parent pf-l-split" type="submit" name="authenticationExecution" value="{e(s['authExecId'])}">
            <div class="pf-l-split__item select-auth-box-icon"><i class="{e(s['iconCssClass'])} fa-2x select-auth-box-icon-properties"></i></div>
            <div class="pf-l-split__item pf-l-stack">
                <div class="pf-l-stack__item select-auth-box-headline pf-c-title">{msg(s['displayName'])}</div>
                <div class="pf-l-stack__item select-auth-box-desc">{msg(s['helpText'])}</div>
            </div>
            <div class="pf-l-split__item pf-m-fill"></div>
            <div class="pf-l-split__item select-auth-box-arrow"><i class="fa fa-angle-right fa-lg"></i></div>
        </button>""" for s in m["auth"]["authenticationSelections"])
    return msg("loginChooseAuthenticator"), f"""<form id="kc-select-credential-form" class="form-horizontal" action="{e(m['url']['loginAction'])}" method="post">
    <div class="pf-l-stack select-auth-container">{items}
    </div>
</form>""", True


def _webauthn_authenticate(m):
    listed = ""
    if m.get("shouldDisplayAuthenticators"):
        listed = "".join(f"""
    <div id="kc-webauthn-authenticator-item-{i}" class="pf-l-stack__item select-auth-box-parent pf-l-split">
        <div class="pf-l-split__item select-auth-box-icon"><i class="pficon pficon-key fa-2x select-auth-box-icon-properties"></i></div>
        <div class="pf-l-split__item pf-l-stack">
            <div id="kc-webauthn-authenticator-label-{i}" class="pf-l-stack__item select-auth-box-headline pf-c-title">{e(a['label'])}</div>
            <div class="pf-l-stack__item select-auth-box-desc"><span id="kc-webauthn-authenticator-createdlabel-{i}">{msg('webauthn-createdAt-label')}</span> <span id="kc-webauthn-authenticator-created-{i}">{e(a['createdAt'])}</span></div>
        </div>
    </div>""" for i, a in enumerate(m["authenticators"]["authenticators"]))
    return msg("webauthn-login-title"), f"""<div id="kc-form-webauthn" class="form-horizontal">
{webauth_form(m)}
<div class="{GROUP} no-bottom-margin">
{authn_select(m, 'form-horizontal')}{listed}
    <div id="kc-form-buttons" class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        <input id="authenticateWebAuthnButton" type="button" autofocus="autofocus" value="{msg('webauthn-doAuthenticate')}" class="{PRIMARY}"/>
    </div>
</div>
</div>
{authenticate_script(m)}""", True


def _logout_other_sessions():
    return """<div id="kc-form-options" class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
            <div class="checkbox"><label><input type="checkbox" id="logout-sessions" name="logout-sessions" value="on" checked> Sign out from other devices</label></div>
        </div>"""


def _webauthn_register(m):
    return msg("webauthn-registration-title"), f"""{register_form(m, GROUP, _logout_other_sessions())}
{register_script(m)}
<input type="submit" class="{PRIMARY}" id="registerWebAuthn" value="{msg('doRegisterSecurityKey')}"/>""", True


def _webauthn_error(m):
    button = f'<input tabindex="4" onclick="refreshPage()" type="button" class="{PRIMARY}" name="try-again" id="kc-try-again" value="{msg("doTryAgain")}"/>'
    return msg("webauthn-error-title"), error_credential_form(m, "form-horizontal", button), True


def _oauth_grant(m):
    oauth = m["oauth"]
    scopes = "".join(f"\n        <li><span>{advanced_msg(s['consentScreenText'])}</span></li>" for s in oauth["clientScopesRequested"])
    return f"<p>{msg('oauthGrantTitle', e(oauth['client']))}</p>", f"""<div id="kc-oauth" class="content-area">
    <h3>{msg('oauthGrantRequest')}</h3>
    <ul>{scopes}
    </ul>
    <form class="form-actions" action="{e(m['url']['oauthAction'])}" method="POST">
        <input type="hidden" name="code" value="{e(oauth['code'])}">
        <div class="{GROUP}">
            <div id="kc-form-options"><div></div></div>
            <div id="kc-form-buttons"><div>
                <input class="{PRIMARY_INLINE}" name="accept" id="kc-login" type="submit" value="{msg('doYes')}"/>
                <input class="{DEFAULT}" name="cancel" id="kc-cancel" type="submit" value="{msg('doNo')}"/>
            </div></div>
        </div>
    </form>
    <div class="clearfix"></div>
</div>""", True


def _terms(m):
    return msg("termsTitle"), f"""<div id="kc-terms-text">{msg('termsText')}</div>
<form class="form-actions" action="{e(m['url']['loginAction'])}" method="POST">
    <input class="{PRIMARY_INLINE}" name="accept" id="kc-accept" type="submit" value="{msg('doAccept')}"/>
    <input class="{DEFAULT}" name="cancel" id="kc-decline" type="submit" value="{msg('doDecline')}"/>
</form>
<div class="clearfix"></div>""", False


def _update_password(m):
    groups = ""
    for name, label, err_id in (("password-new", "passwordNew", "input-error-password"),
                                ("password-confirm", "passwordConfirm", "input-error-password-confirm")):
        field = "password" if name == "password-new" else "password-confirm"
        groups += f"""<div class="{GROUP}">
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><label for="{name}" class="{LABEL}">{msg(label)}</label></div>
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        {_password_input(name, 0, 'new-password', exists_error(m, 'password', 'password-confirm'), name == 'password-new')}{_error_span(m, err_id, field)}
    </div>
</div>
"""
    return msg("updatePasswordTitle"), f"""<form id="kc-passwd-update-form" class="form-horizontal" action="{e(m['url']['loginAction'])}" method="post">
{groups}<div class="{GROUP}">
    {_logout_other_sessions()}
    <div id="kc-form-buttons" class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        <input class="{PRIMARY}" type="submit" value="{msg('doSubmit')}"/>
    </div>
</div>
</form>""", not exists_error(m, "password", "password-confirm")


def _update_profile(m):
    groups = ""
    for a in m["profile"]["attributes"]:
        name = a["name"]
        if a.get("readOnly"):
            field = f'<input type="text" id="{name}" name="{name}" value="{e(a.get("value", ""))}" class="{INPUT}" disabled/>'
        else:
            invalid = ' aria-invalid="true"' if exists_error(m, name) else ""
            field = f'<input type="text" id="{name}" name="{name}" value="{e(a.get("value", ""))}" class="{INPUT}" autocomplete="{a.get("autocomplete", "off")}"{invalid}/>'
        star = ' <span class="required">*</span>' if a.get("required") else ""
        groups += f"""<div class="{GROUP}">
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><label for="{name}" class="{LABEL}">{msg(a['displayName'])}</label>{star}</div>
    <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        {field}{_error_span(m, 'input-error-' + name, name)}
    </div>
</div>
"""
    return msg("loginProfileTitle"), f"""<form id="kc-update-profile-form" class="form-horizontal" action="{e(m['url']['loginAction'])}" method="post">
{groups}<div class="{GROUP}">
    <div id="kc-form-options" class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><div></div></div>
    <div id="kc-form-buttons" class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
        <input class="{PRIMARY}" type="submit" value="{msg('doSubmit')}"/>
    </div>
</div>
</form>""", True


def _config_totp(m):
    totp = m["totp"]
    star = ' <span class="required">*</span>' if totp["otpCredentials"] else ""
    return msg("loginTotpTitle"), f"""{totp_steps(m, "")}
<form action="{e(m['url']['loginAction'])}" class="form-horizontal" id="kc-totp-settings-form" method="post">
    <div class="{GROUP}">
        <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><label for="totp" class="{LABEL}">{msg('authenticatorCode')}</label> <span class="required">*</span></div>
        <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
            <input type="text" id="totp" name="totp" autocomplete="off" class="{INPUT}"{' aria-invalid="true"' if exists_error(m, 'totp') else ''}/>{_error_span(m, 'input-error-otp-code', 'totp')}
        </div>
        <input type="hidden" id="totpSecret" name="totpSecret" value="{e(totp['totpSecret'])}"/>
        {totp_mode(m)}
    </div>
    <div class="{GROUP}">
        <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12"><label for="userLabel" class="{LABEL}">{msg('loginTotpDeviceName')}</label>{star}</div>
        <div class="col-xs-12 col-sm-12 col-md-12 col-lg-12">
            <input type="text" id="userLabel" name="userLabel" autocomplete="off" class="{INPUT}"/>{_error_span(m, 'input-error-otp-label', 'userLabel')}
        </div>
    </div>
    <div class="{GROUP}">{_logout_other_sessions()}</div>
    <input type="submit" class="{PRIMARY_INLINE}" id="saveTOTPBtn" value="{msg('doSubmit')}"/>
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
    return f"""<div class="alert-{kind} pf-c-alert pf-m-inline pf-m-{level}">
    <div class="pf-c-alert__icon"><span class="{ICONS[kind]}"></span></div>
    <span class="pf-c-alert__title kc-feedback-text">{message['summary']}</span>
</div>
"""


def _header(m, title):
    auth = m.get("auth") or {}
    if auth.get("showUsername") and not auth.get("showResetCredentials"):
        return f"""<div id="kc-username" class="{GROUP}">
    <label id="kc-attempted-username">{e(auth.get('attemptedUsername', ''))}</label>
    <a id="reset-login" href="{e(m['url']['loginRestartFlowUrl'])}" aria-label="{msg('restartLoginTooltip')}">
        <div class="kc-login-tooltip"><i class="pficon pficon-arrow fa"></i><span class="kc-tooltip-text">{msg('restartLoginTooltip')}</span></div>
    </a>
</div>"""
    return f'<h1 id="kc-page-title">{title}</h1>'


def _try_another_way(m):
    if not (m.get("auth") or {}).get("showTryAnotherWayLink"):
        return ""
    return f"""<form id="kc-select-try-another-way-form" action="{e(m['url']['loginAction'])}" method="post">
    <div class="{GROUP}">
        <input type="hidden" name="tryAnotherWay" value="on"/>
        <a href="#" id="try-another-way" onclick="document.forms['kc-select-try-another-way-form'].requestSubmit();return false;">{msg('doTryAnotherWay')}</a>
    </div>
</form>
"""


def render(m) -> str:
    title, form, display_message = PAGES[m["pageId"]](m)
    info = INFO.get(m["pageId"])
    info_html = f'<div id="kc-info" class="login-pf-signup"><div id="kc-info-wrapper">{info(m)}</div></div>' if info else ""
    rp, rcp = e(m["url"]["resourcesPath"]), e(m["url"]["resourcesCommonPath"])
    checker = ""
    if m.get("authenticationSession"):
        checker = f"""<script type="module">
        import {{ checkAuthSession }} from "{rp}/js/authChecker.js";
        checkAuthSession("{m['authenticationSession']['authSessionIdHash']}");
    </script>"""
    return f"""<!DOCTYPE html>
<html class="login-pf" lang="en">
<head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
    <meta name="robots" content="noindex, nofollow">
    <meta name="viewport" content="width=device-width,initial-scale=1"/>
    <title>{msg('loginTitle', e(m['realm']['displayName']))}</title>
    <link rel="icon" href="{rp}/img/favicon.ico" />
    <link href="{rcp}/vendor/patternfly-v4/patternfly.min.css" rel="stylesheet" />
    <link href="{rcp}/vendor/patternfly-v3/css/patternfly.min.css" rel="stylesheet" />
    <link href="{rcp}/lib/pficon/pficon.css" rel="stylesheet" />
    <link href="{rp}/css/login.css" rel="stylesheet" />
    <script type="importmap">
        {{ "imports": {{ "rfc4648": "{rcp}/vendor/rfc4648/rfc4648.js" }} }}
    </script>
    <script src="{rp}/js/menu-button-links.js" type="module"></script>
    {checker}
</head>
<body class="">
<div class="login-pf-page">
    <div id="kc-header" class="login-pf-page-header">
        <div id="kc-header-wrapper" class="">{e(m['realm']['displayNameHtml'])}</div>
    </div>
    <div class="card-pf">
        <header class="login-pf-header">
            {_header(m, title)}
        </header>
        <div id="kc-content">
            <div id="kc-content-wrapper">
{_alert(m, display_message)}{form}
{_try_another_way(m)}{info_html}
            </div>
        </div>
    </div>
</div>
</body>
</html>
"""
