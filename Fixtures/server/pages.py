"""HTML pages served by the fixture. Every interpolated value is escaped."""
from html import escape


def _layout(title: str, main: str, head: str = "") -> str:
    """A realistic page frame: header, nav with a search form, footer.

    The search form comes first on purpose: a client must pick the login
    form (the one with a password field), not the first form on the page.
    """
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)} - Fixture Identity</title>
<link rel="stylesheet" href="/static/site.css">
{head}</head>
<body>
<header class="site-header">
  <a class="brand" href="/">Fixture Identity</a>
  <nav>
    <a href="/help">Help</a> | <a href="/privacy">Privacy</a>
    <form action="/search" method="get"><input name="q" placeholder="Search"></form>
  </nav>
</header>
<main>
<h1>{escape(title)}</h1>
{main}
</main>
<footer><p>&copy; Fixture Identity. For tests only.</p></footer>
</body>
</html>
"""


def _hidden(fields) -> str:
    """Hidden inputs from a dict or a list of (name, value) pairs."""
    pairs = fields.items() if isinstance(fields, dict) else fields
    return "\n".join(
        f'  <input type="hidden" name="{escape(k)}" value="{escape(v)}">'
        for k, v in pairs)


def login_page(action: str, hidden: dict, error: str = "", banner: str = "", head: str = "") -> str:
    """Username/password form. `action` is used verbatim (may be relative or "").

    `error` becomes the usual alert; `banner` (HTML, the caller's own) and
    `head` let scenarios dress the page like other servers do.
    """
    alert = (f'<div class="alert alert-error" role="alert">{escape(error)}</div>\n'
             if error else "")
    return _layout("Sign in", f"""{banner}{alert}<form method="post" action="{escape(action)}" class="login">
{_hidden(hidden)}
  <label>Username <input type="text" name="username" autocomplete="username"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password"></label>
  <label><input type="checkbox" name="remember" value="yes" checked> Remember me</label>
  <button type="submit">Sign in</button>
</form>
<p><a href="/forgot">Forgot your password?</a></p>""", head)


def please_log_in_page(error: str = "") -> str:
    """The json-login scenario's plain page: it expects the JSON API instead."""
    alert = (f'<div class="alert alert-error" role="alert">{escape(error)}</div>\n'
             if error else "")
    return _layout("Please log in", f"""{alert}<p>Please log in.</p>
<form method="post" action="login">
  <input type="text" name="username">
  <input type="password" name="password">
  <button type="submit">Log in</button>
</form>""")


def consent_page(action: str, txn: str, scope: str, client_id: str) -> str:
    """Deny comes first: a client must choose Allow by its meaning, not position."""
    return _layout("Authorize access", f"""<p><strong>{escape(client_id)}</strong> wants access to:
<code>{escape(scope or "(no scope)")}</code></p>
<form method="post" action="{escape(action)}">
{_hidden({"txn": txn, "scope": scope})}
  <button type="submit" name="decision" value="deny">Deny</button>
  <button type="submit" name="decision" value="allow">Allow</button>
</form>""")


def form_post_page(action: str, fields) -> str:
    """OAuth 2.0 Form Post Response Mode: auto-submitting form to the redirect_uri."""
    return f"""<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>Submit This Form</title></head>
<body onload="javascript:document.forms[0].submit()">
<form method="post" action="{escape(action)}">
{_hidden(fields)}
  <noscript><button type="submit">Continue</button></noscript>
</form>
</body>
</html>
"""


def page(title: str, main_html: str, head: str = "") -> str:
    """The site frame around HTML the caller built (and escaped) itself."""
    return _layout(title, main_html, head)


def spa_shell(context_json: str) -> str:
    """A single-page app's shell: no form, only scripts (Keycloak's keycloakify
    kcContext style): nothing a client without JavaScript can walk."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sign in</title>
<script>window.kcContext = {context_json};</script>
<script type="module" crossorigin src="/static/assets/index-3f9a1c.js"></script>
<link rel="stylesheet" href="/static/assets/index-77b2e0.css">
</head>
<body>
<div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
</body>
</html>
"""


def message_page(title: str, message: str) -> str:
    return _layout(title, f"<p>{escape(message)}</p>")
