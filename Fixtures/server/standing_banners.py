"""Login pages that show a banner on every visit, so the error after a wrong
password is not the only alert on the page (issue: JupyterHub's permanent
"unsecured HTTP connection" warning was reported instead of "Invalid
username or password").

login-error-jupyterhub       JupyterHub's login template: a standing
                             `hidden alert alert-warning` paragraph (shown by a
                             script over http), the error in `p.login_error`
login-error-banner-role-alert  a standing role="alert" maintenance notice; the
                             error only in a class (`form-error`)
login-error-class-only       a standing `alert alert-info` notice; the error
                             only in a class token (`kc-feedback-text`)
login-error-same-text        the page as first fetched already carries the
                             error (a flash kept from an earlier attempt); the
                             wrong password shows the same text again
"""
from html import escape

import pages
import txn_login

JUPYTERHUB_WARNING = (
    "<p id='insecure-login-warning' class='hidden alert alert-warning'>\n"
    "Warning: JupyterHub seems to be served over an unsecured HTTP connection.\n"
    "We strongly recommend enabling HTTPS for JupyterHub.\n"
    "</p>\n")
JUPYTERHUB_ERROR = "Invalid username or password"


def _jupyterhub(ex, txn, error):
    """Modelled on share/jupyterhub/templates/login.html (JupyterHub 4/5)."""
    login_error = (f'<p class="login_error">\n{escape(JUPYTERHUB_ERROR)}\n</p>\n' if error else "")
    return f"""<!DOCTYPE HTML>
<html>
<head>
<meta charset="utf-8">
<title>JupyterHub</title>
<link rel="stylesheet" href="/hub/static/css/style.min.css" type="text/css"/>
</head>
<body>
<nav class="navbar navbar-expand-sm bg-body-tertiary mb-4"><span id="jupyterhub-logo"></span></nav>
<div id="login-main" class="container">
<form action="login?txn={escape(txn)}" method="post" role="form">
  <div class="auth-form-header"><h1>Sign in</h1></div>
  <div class='auth-form-body m-auto'>
    {JUPYTERHUB_WARNING}{login_error}<input type="hidden" name="_xsrf" value="2|fixture|xsrf"/>
    <label for="username_input">Username:</label>
    <input id="username_input" type="text" autocapitalize="off" autocorrect="off"
           autocomplete="username" class="form-control" name="username" val="" autofocus="autofocus"/>
    <label for='password_input'>Password:</label>
    <input type="password" class="form-control" autocomplete="current-password"
           name="password" id="password_input"/>
    <div class="feedback-container">
      <input id="login_submit" type="submit" class='btn btn-jupyter form-control' value='Sign in' tabindex="3"/>
      <div class="feedback-widget hidden"><i class="fa fa-spinner"></i></div>
    </div>
  </div>
</form>
</div>
<script>
if (!window.isSecureContext) {{
  // unhide http warning
  var warning = document.getElementById("insecure-login-warning");
  warning.className = warning.className.replace(/\\bhidden\\b/, "");
}}
</script>
</body>
</html>
"""


# scenario -> (standing banner, shown after a wrong password)
BANNERS = {
    "login-error-banner-role-alert": (
        '<div class="site-notice" role="alert">Scheduled maintenance: Sunday 02:00-04:00 UTC.</div>\n',
        '<div class="form-error">Invalid username or password.</div>\n'),
    "login-error-class-only": (
        '<div class="alert alert-info">Sign in with your university account.</div>\n',
        '<span class="kc-feedback-text">Invalid username or password.</span>\n'),
    "login-error-same-text": (
        '<div class="alert alert-danger" role="alert">Invalid username or password.</div>\n', ""),
}


def _with_banner(ex, txn, error):
    standing, on_error = BANNERS[ex.scenario]
    return pages.login_page("login", {"txn": txn}, "", standing + (on_error if error else ""))


def login(ex):
    render = _jupyterhub if ex.scenario == "login-error-jupyterhub" else _with_banner
    txn_login.login(ex, render=render)


SCENARIOS = ("login-error-jupyterhub", *BANNERS)
AUTHORIZE = {name: txn_login.start for name in SCENARIOS}
PAGES = {(name, "login"): login for name in SCENARIOS}
