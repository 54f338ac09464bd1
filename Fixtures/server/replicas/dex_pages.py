"""Dex's pages, in our own markup with the element ids, names, classes and
texts of dexidp/dex web/templates/{header,login,password,totp_verify,
approval,error}.html (see dex.md)."""
from .replica_kit import esc

SCOPE_TEXT = {  # server/templates/templates.go scopeDescriptions
    "offline_access": "Have offline access",
    "profile": "View basic profile information",
    "email": "View your email address",
    "groups": "View your groups",
}
# A 1x1 PNG: the enrolment page's QR code stands for a secret that is only in
# the image (Dex prints no text form of it).
QR_PLACEHOLDER = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def _frame(issuer, path, body):
    return f"""<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1">
    <title>{esc(issuer)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link href="{esc(path)}/static/main.css" rel="stylesheet">
    <link href="{esc(path)}/theme/styles.css" rel="stylesheet">
  </head>
  <body class="theme-body">
    <div class="theme-navbar">
      <div class="theme-navbar__logo-wrap"><img class="theme-navbar__logo" src="{esc(path)}/theme/logo.png"></div>
    </div>
    <div class="dex-container">
{body}
    </div>
  </body>
</html>
"""


def connectors(issuer, path, entries):
    """login.html: one link per connector, `(url, name, type)`."""
    rows = "".join(f"""
      <div class="theme-form-row">
        <a href="{esc(url)}" class="dex-btn dex-btn-provider theme-btn-provider">
          <span class="dex-btn-icon dex-btn-icon--{esc(kind)}"></span>
          <span class="dex-btn-text">Log in with {esc(name)}</span>
        </a>
      </div>""" for url, name, kind in entries)
    return _frame(issuer, path, f"""<div class="theme-panel">
  <h2 class="theme-heading">Log in to {esc(issuer)} </h2>
  <div>{rows}
  </div>
</div>""")


def password(issuer, path, post_url, prompt, username="", invalid=False, back="", remember=None):
    """password.html: `login`, `password`, `remember_me` when the server has it;
    a wrong password adds div#login-error."""
    value = f' value="{esc(username)}" ' if username else " autofocus "
    error = (f'\n    <div id="login-error" class="dex-error-box">\n      Invalid {esc(prompt)} and password.\n    </div>\n'
             if invalid else "")
    remember_row = ""
    if remember is not None:
        checked = "checked" if remember else ""
        remember_row = f"""
    <div class="theme-form-row">
      <label class="theme-remember-me">
        <input tabindex="3" type="checkbox" name="remember_me" {checked}/>
        Remember me
      </label>
    </div>"""
    back_link = (f'\n  <div class="theme-link-back">\n    <a class="dex-subtle-text" href="{esc(back)}">'
                 f'Select another login method.</a>\n  </div>' if back else "")
    return _frame(issuer, path, f"""<div class="theme-panel">
  <h2 class="theme-heading">Log in to Your Account</h2>
  <form method="post" action="{esc(post_url)}">
    <div class="theme-form-row">
      <div class="theme-form-label"><label for="login">{esc(prompt)}</label></div>
      <input tabindex="1" required id="login" name="login" type="text" class="theme-form-input" placeholder="{esc(prompt.lower())}"{value}/>
    </div>
    <div class="theme-form-row">
      <div class="theme-form-label"><label for="password">Password</label></div>
      <input tabindex="2" required id="password" name="password" type="password" class="theme-form-input" placeholder="password" {"autofocus" if invalid else ""}/>
    </div>
{error}{remember_row}
    <button tabindex="4" id="submit-login" type="submit" class="dex-btn theme-btn--primary">Login</button>
  </form>{back_link}
</div>
<script type="text/javascript">
  document.querySelector('form').onsubmit = function(e) {{
    document.querySelector('#submit-login').setAttribute('disabled', 'disabled');
  }};
</script>""")


def totp(issuer, path, post_url, totp_issuer, enrol=False, invalid=False):
    """totp_verify.html: field `totp`; an enrolment shows the QR code instead
    of the issuer line."""
    if enrol:
        lead = (f"""  <p>Scan the QR code below using your authenticator app, then enter the code.</p>
  <div style="text-align: center; margin: 1em 0;">
    <img src="data:image/png;base64,{QR_PLACEHOLDER}" alt="QR code" width="200" height="200"/>
  </div>""")
    else:
        lead = f"""  <p>Enter the code from your authenticator app.</p>
  <p class="theme-heading">{esc(totp_issuer)}</p>"""
    error = ('\n    <div id="login-error" class="dex-error-box">\n      Invalid code. Please try again.\n    </div>\n'
             if invalid else "")
    return _frame(issuer, path, f"""<div class="theme-panel">
  <h2 class="theme-heading">Two-factor authentication</h2>
{lead}
  <form method="post" action="{esc(post_url)}">
    <div class="theme-form-row">
      <div class="theme-form-label"><label for="totp">One-time code</label></div>
      <input tabindex="1" required id="totp" name="totp" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="6"
             autocomplete="one-time-code" class="theme-form-input" placeholder="000000" autofocus/>
    </div>
{error}
    <button tabindex="2" id="submit-login" type="submit" class="dex-btn theme-btn--primary">Verify</button>
  </form>
</div>""")


def approval(issuer, path, req_id, client_name, scopes):
    """approval.html: two forms without action (they post to the page's own
    URL, hmac included), `req` and `approval` approve|rejected."""
    accesses = [SCOPE_TEXT[s] for s in scopes if s in SCOPE_TEXT]
    if accesses:
        items = "".join(f"\n      <li>{esc(a)}</li>" for a in accesses)
        what = f"""<div class="dex-subtle-text">{esc(client_name)} would like to:</div>
    <ul class="dex-list">{items}
    </ul>"""
    else:
        what = f'<div class="dex-subtle-text">{esc(client_name)} has not requested any personal information</div>'

    def form(value, cls, text):
        return f"""    <div class="theme-form-row">
      <form method="post">
        <input type="hidden" name="req" value="{esc(req_id)}"/>
        <input type="hidden" name="approval" value="{value}">
        <button type="submit" class="dex-btn {cls}"><span class="dex-btn-text">{text}</span></button>
      </form>
    </div>"""
    return _frame(issuer, path, f"""<div class="theme-panel">
  <h2 class="theme-heading">Grant Access</h2>
  <hr class="dex-separator">
  <div>
    {what}
  </div>
  <hr class="dex-separator">
  <div>
{form("approve", "theme-btn--success", "Grant Access")}
{form("rejected", "theme-btn-provider", "Cancel")}
  </div>
</div>""")


def error(issuer, path, err_type, message):
    """error.html: the status text and the message."""
    return _frame(issuer, path, f"""<div class="theme-panel">
  <h2 class="theme-heading">{esc(err_type)}</h2>
  <p>{esc(message)}</p>
</div>""")
