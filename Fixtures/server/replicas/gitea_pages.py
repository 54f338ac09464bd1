"""Gitea's pages (absolute links under the instance's AppSubURL `sub`), in our own markup with the ids, names, classes and texts
of go-gitea/gitea templates/user/auth/{signin_inner,twofa,grant,
prohibit_login}.tmpl and templates/base/alert.tmpl (see gitea.md)."""
from .replica_kit import esc


def _frame(title, body):
    return f"""<!DOCTYPE html>
<html lang="en-US" data-theme="gitea-auto">
<head>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{esc(title)} - Gitea: Git with a cup of tea</title>
  <link rel="stylesheet" href="/assets/css/index.css">
</head>
<body>
  <div class="full height">
    <nav id="navbar" aria-label="Navigation Bar"><a class="item" id="navbar-logo" href="/">Gitea</a></nav>
{body}
  </div>
  <script src="/assets/js/index.js" onerror="alert('Failed to load asset files')"></script>
</body>
</html>
"""


def _alert(error):
    # base/alert: the flash of RenderWithErr.
    return (f'<div class="ui negative message flash-message flash-error"><p>{esc(error)}</p></div>\n'
            if error else "")


def csrf_field(token):
    return f'<input type="hidden" name="_csrf" value="{esc(token)}">'


def signin(action, csrf, error="", user_name=""):
    return _frame("Sign In", f"""<div role="main" aria-label="Sign In" class="page-content user signin">
  <div class="ui middle very relaxed page grid">
    <div class="column">
      <form class="ui form" action="{esc(action)}" method="post">
        {csrf_field(csrf)}
        <h4 class="ui top attached header center">Sign In</h4>
        <div class="ui attached segment">
          {_alert(error)}<div class="required field">
            <label for="user_name">Username or Email Address</label>
            <input id="user_name" type="text" name="user_name" value="{esc(user_name)}" autofocus required autocomplete="username">
          </div>
          <div class="required field">
            <label for="password">Password</label>
            <input id="password" name="password" type="password" value="" autocomplete="current-password" required>
          </div>
          <div class="inline field">
            <div class="ui checkbox">
              <label>Remember This Device</label>
              <input name="remember" type="checkbox">
            </div>
          </div>
          <div class="field">
            <button class="ui primary button tw-w-full">Sign In</button>
          </div>
        </div>
      </form>
    </div>
  </div>
</div>""")


def twofa(sub, action, csrf, error=""):
    return _frame("Two-Factor Authentication", f"""<div role="main" aria-label="Two-Factor Authentication" class="page-content user signin">
  <div class="ui middle very relaxed page grid">
    <div class="column">
      <form class="ui form" action="{esc(action)}" method="post">
        {csrf_field(csrf)}
        <h3 class="ui top attached header">Two-Factor Authentication</h3>
        <div class="ui attached segment">
          {_alert(error)}<div class="required field">
            <label for="passcode">Passcode</label>
            <input id="passcode" name="passcode" type="text" autocomplete="one-time-code" inputmode="numeric" autofocus required>
          </div>
          <button class="ui primary button">Verify</button>
          <a href="{esc(sub)}/user/two_factor/scratch">Use a scratch code</a>
        </div>
      </form>
    </div>
  </div>
</div>""")


def grant(sub, app_name, client_id, state, scope, nonce, redirect_uri, csrf=None):
    """grant.tmpl: POST /login/oauth/grant; the newest template carries no
    _csrf (the /login/oauth group is DisableCSRF), older ones did."""
    token = f"\n        {csrf_field(csrf)}" if csrf is not None else ""
    host = redirect_uri.split("/")[2] if "//" in redirect_uri else redirect_uri
    return _frame(f"Authorize {app_name}", f"""<div role="main" aria-label="Authorize" class="page-content oauth2-authorize-application-box">
  <div class="ui container tw-max-w-[500px]">
    <h3 class="ui top attached header">Authorize "{esc(app_name)}" to access your account?</h3>
    <div class="ui attached segment">
      <p><b>If you grant the access, it will be able to access and write to all your account information, including private repos and organisations.</b><br>
      This application was created by {esc(app_name)}.<br>
      With scopes: <b>{esc(scope)}</b></p>
    </div>
    <div class="ui attached segment"><p>You will be redirected to {esc(host)} if you authorize this application.</p></div>
    <div class="ui attached segment tw-text-center">
      <form method="post" action="{esc(sub)}/login/oauth/grant">{token}
        <input type="hidden" name="client_id" value="{esc(client_id)}">
        <input type="hidden" name="state" value="{esc(state)}">
        <input type="hidden" name="scope" value="{esc(scope)}">
        <input type="hidden" name="nonce" value="{esc(nonce)}">
        <input type="hidden" name="redirect_uri" value="{esc(redirect_uri)}">
        <button type="submit" id="authorize-app" name="granted" value="true" class="ui red inline button">Authorize Application</button>
        <button type="submit" name="granted" value="false" class="ui basic primary inline button">Cancel</button>
      </form>
    </div>
  </div>
</div>""")


def prohibit_login():
    return _frame("Sign in Prohibited", """<div role="main" aria-label="Sign in Prohibited" class="page-content user prohibit_login">
  <div class="ui container">
    <h2 class="ui top attached header">Sign in Prohibited</h2>
    <div class="ui attached segment">
      <p>Your account is prohibited from signing in, please contact your site administrator.</p>
    </div>
  </div>
</div>""")
