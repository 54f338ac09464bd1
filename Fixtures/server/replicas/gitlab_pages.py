"""GitLab's pages, in our own markup with the names, ids, data-testids and
texts of gitlabhq/gitlabhq app/views/devise/sessions/{_new_base,two_factor}
.html.haml and app/views/doorkeeper/authorizations/new.html.haml (see
gitlab.md). `sub` is the instance's relative URL root (the scenario root)."""
from .replica_kit import esc


def _frame(title, csrf, body, flash=""):
    alert = ""
    if flash:
        alert = (f'<div class="flash-container flash-container-page sticky" data-testid="flash-container">'
                 f'<div class="gl-alert flash-alert gl-alert-danger" data-testid="alert-danger">'
                 f'<div class="gl-alert-body">{esc(flash)}</div></div></div>\n')
    return f"""<!DOCTYPE html>
<html class="gl-light" lang="en">
<head>
<meta charset="utf-8">
<title>{esc(title)} · GitLab</title>
<meta name="csrf-param" content="authenticity_token" />
<meta name="csrf-token" content="{esc(csrf)}" />
<script>window.gon={{}};</script>
</head>
<body class="ui-neutral login-page navless" data-page="sessions:new">
<div class="page-wrap">
{alert}<div class="container navless-container">
{body}
</div>
</div>
</body>
</html>
"""


def _token(csrf):
    return f'<input type="hidden" name="authenticity_token" value="{esc(csrf)}" autocomplete="off" />'


def sign_in(sub, csrf, flash=""):
    return _frame("Sign in", csrf, f"""<div class="gl-w-full sm:gl-w-1/2">
<form class="gl-show-field-errors js-arkose-labs-form" aria-live="assertive" data-testid="sign-in-form" id="new_user" action="{esc(sub)}/users/sign_in" accept-charset="UTF-8" method="post">{_token(csrf)}
<div class="form-group">
<label for="user_login">Username or primary email</label>
<input class="form-control gl-form-input js-username-field" autocomplete="username" autofocus="autofocus" autocapitalize="off" autocorrect="off" required="required" title="Username or primary email is required." data-testid="username-field" type="text" name="user[login]" id="user_login" />
</div>
<div class="form-group">
<label for="user_password">Password</label>
<input class="form-control gl-form-input js-password" data-id="user_password" data-required="true" data-title="Password is required." data-name="user[password]" data-testid="password-field" type="password" name="user[password]" id="user_password" />
<div class="form-text gl-text-right"><a href="{esc(sub)}/users/password/new">Forgot your password?</a></div>
</div>
<div class="gl-mb-3">
<input name="user[remember_me]" type="hidden" value="0" autocomplete="off" /><input autocomplete="off" type="checkbox" value="1" name="user[remember_me]" id="user_remember_me" />
<label for="user_remember_me">Remember me</label>
</div>
<button class="gl-button btn btn-block btn-md btn-confirm js-sign-in-button" data-testid="sign-in-button" type="submit"><span class="gl-button-text">Sign in</span></button>
</form>
</div>""", flash)


def two_factor(sub, csrf, remember, flash=""):
    return _frame("Two-factor authentication", csrf, f"""<div class="login-box">
<div class="login-heading"><h3>Two-factor Authentication</h3></div>
<div class="login-body">
<form class="edit_user" id="edit_user" action="{esc(sub)}/users/sign_in" accept-charset="UTF-8" method="post">{_token(csrf)}
<input value="{esc(remember)}" autocomplete="off" type="hidden" name="user[remember_me]" id="user_remember_me" />
<input class="form-control" placeholder="Two-factor Authentication code" required="required" autofocus="autofocus" type="text" name="user[otp_attempt]" id="user_otp_attempt" />
<p class="help-block hint">Enter the code from the two-factor app on your mobile device. If you've lost your device, you may enter one of your recovery codes.</p>
<div class="prepend-top-20"><input type="submit" name="commit" value="Verify code" class="btn btn-save" data-disable-with="Verify code" /></div>
</form>
</div>
</div>""", flash)


def authorize(sub, csrf, client_name, fields, scopes):
    """doorkeeper/authorizations/new: Deny (POST + _method=delete) and
    Authorize (POST) forms carrying the same hidden fields."""
    hidden = "".join(f'<input type="hidden" name="{esc(k)}" id="{esc(k)}" value="{esc(v)}" autocomplete="off" />'
                     for k, v in fields)
    items = "".join(f"<li><strong>{esc(s)}</strong></li>" for s in scopes)
    return _frame("Authorize application", csrf, f"""<main role="main">
<div class="doorkeeper-authorize gl-mx-auto gl-mt-6">
<div class="gl-p-5"><h4 class="gl-m-0">Authorize {esc(client_name)} to use your account?</h4></div>
<div class="gl-p-5">
<p>An application called {esc(client_name)} is requesting access to your GitLab account.
Please note that this application is not provided by GitLab and you should verify its authenticity before allowing access.</p>
<p>This application will be able to:</p><ul>{items}</ul>
</div>
<div class="gl-p-5 gl-text-right">
<form class="inline" action="{esc(sub)}/oauth/authorize" accept-charset="UTF-8" method="post"><input type="hidden" name="_method" value="delete" autocomplete="off" />{_token(csrf)}{hidden}<button class="gl-button btn btn-md btn-default" type="submit"><span class="gl-button-text">Deny</span></button></form>
<form class="inline" action="{esc(sub)}/oauth/authorize" accept-charset="UTF-8" method="post">{_token(csrf)}{hidden}<button class="gl-button btn btn-md btn-danger gl-ml-3" id="commit-changes" data-qa-selector="authorization_button" type="submit"><span class="gl-button-text">Authorize</span></button></form>
</div>
</div>
</main>""")


def rejected():
    """Rails' public/422.html for a failed authenticity check."""
    return """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>The change you requested was rejected (422)</title></head>
<body>
<h1>422</h1>
<h3>The change you requested was rejected.</h3>
<p>Make sure you have access to the thing you tried to change.</p>
<p>Please contact your GitLab administrator if you think this is a mistake.</p>
</body>
</html>
"""
