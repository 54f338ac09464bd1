"""Zitadel login v1's pages, in our own markup with the names, ids, classes
and English texts of zitadel/zitadel internal/api/ui/login/static/templates/
{main,login,password,mfa_verify_totp}.html and static/i18n/en.yaml (see
zitadel.md). `prefix` is the login UI's path (`<root>/ui/login`)."""
from .replica_kit import esc


def _frame(prefix, title, body):
    return f"""<!DOCTYPE html>
<html lang="en" class="lgn-theme-light" data-theme-mode="auto">
<head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link rel="stylesheet" href="{esc(prefix)}/resources/themes/zitadel/css/zitadel.css" type="text/css">
    <title>{esc(title)}</title>
    <meta name="robots" content="none" />
    <script src="{esc(prefix)}/resources/scripts/theme.js"></script>
</head>
<body class="lgn-app-background">
    <div class="lgn-grow">
        <div class="lgn-max-width-wrapper">
            <header class="lgn-header"><div id="ludo-circle"></div></header>
            <div class="content-container">
{body}
            </div>
        </div>
    </div>
</body>
</html>
"""


def _csrf(token):
    return f'<input type="hidden" name="gorilla.csrf.Token" value="{esc(token)}">'


def _error(message):
    """The "error-message" template."""
    if not message:
        return ""
    return (f'<div class="lgn-error">\n    <i class="lgn-icon-exclamation-circle-solid lgn-warn"></i>\n'
            f'    <p class="lgn-error-message">{esc(message)}</p>\n</div>')


def _profile(login_name):
    return (f'<div class="lgn-login-profile"><div class="lgn-names">'
            f'<p class="lgn-loginname">{esc(login_name)}</p></div></div>')


def login(prefix, csrf, auth_req_id, user_name="", error=""):
    shake = "shake " if error else ""
    return _frame(prefix, "Welcome back!", f"""<div class="lgn-head">
    <h1>Welcome back!</h1>
    <p>Enter your login data.</p>
</div>
<form action="{esc(prefix)}/loginname" method="POST">
    {_csrf(csrf)}
    <input type="hidden" name="authRequestID" value="{esc(auth_req_id)}" />
    <div class="fields">
        <label class="lgn-label" for="loginName">Loginname</label>
        <div class="lgn-suffix-wrapper">
            <input class="lgn-input lgn-suffix-input" type="text" id="loginName" name="loginName" placeholder="username@domain"
            value="{esc(user_name)}" {shake}autocomplete="username" autofocus required>
        </div>
    </div>
    {_error(error)}
    <div class="lgn-actions lgn-reverse-order">
        <button class="lgn-raised-button lgn-primary lgn-initial-focus" id="submit-button" type="submit">next</button>
        <span class="fill-space"></span>
        <button class="lgn-stroked-button" name="register" value="true" formnovalidate>register</button>
    </div>
</form>
<script src="{esc(prefix)}/resources/scripts/form_submit.js"></script>
<script src="{esc(prefix)}/resources/scripts/default_form_validation.js"></script>""")


def password(prefix, csrf, auth_req_id, login_name, error=""):
    shake = "shake" if error else ""
    return _frame(prefix, "Password", f"""<div class="lgn-head">
    <h1>Password</h1>
    {_profile(login_name)}
</div>
<form action="{esc(prefix)}/password" method="POST">
    {_csrf(csrf)}
    <input type="hidden" name="authRequestID" value="{esc(auth_req_id)}" />
    <input type="hidden" name="loginName" value="{esc(login_name)}" autocomplete="username" />
    <div class="fields">
        <label class="lgn-label" for="password">Password</label>
        <input class="lgn-input" type="password" id="password" name="password" autocomplete="current-password" autofocus
            required {shake}>
    </div>
    {_error(error)}
    <a class="block sub-formfield-link" href="{esc(prefix)}/password/reset?authRequestID={esc(auth_req_id)}">reset password</a>
    <div class="lgn-actions">
        <a href="{esc(prefix)}/loginname?authRequestID={esc(auth_req_id)}"><button class="lgn-stroked-button" type="button">back</button></a>
        <span class="fill-space"></span>
        <button id="submit-button" class="lgn-raised-button lgn-primary right" type="submit">next</button>
    </div>
</form>
<script src="{esc(prefix)}/resources/scripts/form_submit.js"></script>""")


def mfa_verify(prefix, csrf, auth_req_id, login_name, error=""):
    """mfa_verify_totp.html (older versions: mfa_verify_otp.html, same form)."""
    return _frame(prefix, "Verify 2-Factor", f"""<div class="lgn-head">
    <h1>Verify 2-Factor</h1>
    {_profile(login_name)}
    <p>Verify your second factor</p>
</div>
<form action="{esc(prefix)}/mfa/verify" method="POST">
    {_csrf(csrf)}
    <input type="hidden" name="authRequestID" value="{esc(auth_req_id)}" />
    <input type="hidden" name="mfaType" value="0" />
    <div class="fields">
        <label class="lgn-label" for="code">Code</label>
        <input class="lgn-input" type="text" id="code" name="code" autocomplete="off" autofocus required>
    </div>
    {_error(error)}
    <div class="lgn-actions">
        <a class="lgn-icon-button lgn-left-action" href="{esc(prefix)}/loginname?authRequestID={esc(auth_req_id)}"><i class="lgn-icon-arrow-left-solid"></i></a>
        <span class="fill-space"></span>
        <button class="lgn-raised-button lgn-primary" id="submit-button" type="submit">next</button>
    </div>
</form>""")


def internal_error(prefix, message):
    return _frame(prefix, "Error", f"""<div class="lgn-head">
    <h1>Error</h1>
</div>
{_error(message)}""")
