"""Universal Login's server-rendered prompts, as a browser receives them:
one primary form (`data-form-primary`) that POSTs to the page's own URL with
the hidden `state`, the prompt's fields, the browser-capability fields
auth0-acul-js sends (src/utils/browser-capabilities.ts: `js-available`,
`is-brave`, `webauthn-available`, `webauthn-platform-available`,
`allow-passkeys`) and a submit button `name="action"` (`default`, `accept`,
`deny`, `continue`: src/constants/form-actions.ts). Errors sit beside their
field as `#error-element-<field>.ulp-input-error-message` with the error's
code in `data-error-code`. Markup and wording are our own; field names,
actions and error codes are Auth0's.
"""
from html import escape

from .auth0_oauth import TENANT

CAPABILITIES = ("js-available", "is-brave", "webauthn-available", "webauthn-platform-available",
                "allow-passkeys")


def _error(field: str, error) -> str:
    if not error:
        return ""
    code, text = error
    return (f'<span id="error-element-{field}" class="ulp-input-error-message" '
            f'data-error-code="{escape(code)}">{escape(text)}</span>\n')


def _input(field, label, kind="text", value="", error=None, extra="") -> str:
    return (f'<div class="input-wrapper{" ulp-error" if error else ""}">\n'
            f'<label for="{field}">{escape(label)}</label>\n'
            f'<input class="input" name="{field}" id="{field}" type="{kind}" value="{escape(value)}"'
            f' required{extra}>\n{_error(field, error)}</div>\n')


def _frame(prompt: str, title: str, text: str, fields: str, state: str, buttons: str, alert=None,
           others=()) -> str:
    """The prompt page; `others`: (label, action) of the secondary forms
    (another method, resend…), each its own form with the state."""
    hidden = "".join(f'<input type="hidden" id="{c}" name="{c}" value="false">\n' for c in CAPABILITIES)
    banner = ""
    if alert:
        banner = (f'<div id="prompt-alert" class="ulp-alert" data-error-code="{escape(alert[0])}">'
                  f'<p>{escape(alert[1])}</p></div>\n')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} | {TENANT}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body class="_widget-auto-layout">
<main class="_widget {prompt}"><section class="prompt-box">
<header><h1 id="title">{escape(title)}</h1><p id="description">{escape(text)}</p></header>
{banner}<form method="POST" class="_form-{prompt}" data-form-primary="true">
<input type="hidden" name="state" value="{escape(state)}">
{fields}{hidden}{buttons}</form>
{"".join(_other_form(state, label, action) for label, action in others)}</section></main></body></html>
"""


def _other_form(state, label, action) -> str:
    return (f'<form method="POST" class="ulp-alternate-action">\n'
            f'<input type="hidden" name="state" value="{escape(state)}">\n'
            f'<button type="submit" name="action" value="{action}">{escape(label)}</button>\n</form>\n')


def _button(label, action="default") -> str:
    return (f'<button type="submit" name="action" value="{action}" '
            f'data-action-button-primary="true">{escape(label)}</button>\n')


def login_id(state, client, error=None) -> str:
    fields = _input("username", "Username or email address", error=error,
                    extra=' inputmode="email" autocomplete="email username" autocapitalize="none" spellcheck="false"')
    return _frame("login-id", "Welcome", f"Log in to {TENANT} to continue to {client}.", fields, state,
                  _button("Continue"))


def login_password(state, username, error=None, with_username=False) -> str:
    if with_username:  # /u/login: both fields on one prompt
        user = _input("username", "Username or email address", value=username,
                      extra=' autocomplete="email username" autocapitalize="none"')
    else:
        user = (f'<input type="hidden" name="username" value="{escape(username)}">\n'
                f'<div class="ulp-authenticator-selector"><span class="ulp-username">{escape(username)}</span> '
                f'<a href="identifier?state={escape(state)}">Edit</a></div>\n')
    fields = user + _input("password", "Password", "password", error=error, extra=' autocomplete="current-password"')
    return _frame("login-password" if not with_username else "login", "Enter Your Password",
                  f"Enter your password for {TENANT} to continue.", fields, state,
                  _button("Continue") + f'<p><a href="../reset-password/request?state={escape(state)}">Forgot password?</a></p>\n')


def mfa_otp(state, error=None) -> str:
    fields = (_input("code", "Enter your one-time code", error=error,
                     extra=' inputmode="numeric" pattern="[0-9]*" autocomplete="one-time-code"')
              + '<label><input type="checkbox" name="rememberBrowser" value="true"> Remember this device for 30 days</label>\n')
    return _frame("mfa-otp-challenge", "Verify Your Identity",
                  "Check your preferred one-time password application for a code.", fields, state,
                  _button("Continue"), others=[("Try another method", "pick-authenticator")])


def mfa_push(state, alert=None) -> str:
    fields = '<p class="ulp-device">Pat\'s iPhone</p>\n'
    return _frame("mfa-push-challenge-push", "Verify Your Identity",
                  "We've sent a notification to the following device via the Auth0 Guardian app:",
                  fields, state, _button("I've responded on my device", "continue"), alert,
                  [("Resend", "resend"), ("Manually Enter Code", "enter-otp-code")])


def mfa_sms(state, error=None) -> str:
    fields = ('<p class="ulp-phone">XXXXXXXX0142</p>\n'
              + _input("code", "Enter the 6-digit code", error=error, extra=' inputmode="numeric" autocomplete="one-time-code"'))
    return _frame("mfa-sms-challenge", "Verify Your Identity", "We've sent a text message to:", fields, state,
                  _button("Continue"), others=[("Resend", "resend-code")])


def consent(state, client, scopes) -> str:
    items = "".join(f"<li>{escape(s)}</li>" for s in scopes)
    return _frame("consent", "Authorize App", f"{client} is requesting access to your {TENANT} account.",
                  f"<ul class=\"scopes\">{items}</ul>\n", state,
                  _button("Decline", "deny") + _button("Accept", "accept"))
