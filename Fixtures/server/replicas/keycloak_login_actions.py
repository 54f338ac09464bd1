"""login-actions/*: where Keycloak's login pages post, with its checks.

LoginActionsService + SessionCodeChecks (services/src/main/java/org/
keycloak/services/resources/): before any page runs,
1. the authentication session is found by the AUTH_SESSION_ID cookie and
   the tab_id (and client_id) of the URL. None → restart from the
   KC_RESTART cookie: a new authentication session, the warning "Your
   login attempt timed out.  Login will start from the beginning." and a
   302 to the flow's start; no KC_RESTART either → 400 error page "Cookie
   not found. Please make sure cookies are enabled in your browser."; a
   KC_RESTART that does not verify → 400 "An error occurred, please login
   again through your application.";
2. session_code must be the session's active code, used once. A stale
   code for the current execution → 302 back to it with "Action expired.
   Please continue with login now."; for another execution → "Page has
   expired" (login-page-expired.ftl). No code: a refresh of the current
   page (a GET renders it again);
3. the session must not be older than the login lifespan, else the flow
   restarts with the login-timeout text;
4. the step must be the session's: authenticate while authenticating,
   required-action while in required actions (else "Page has expired").
A request with a valid code is an action, even a GET (its form is empty).
"""
from oauth_store import CLIENTS

from . import keycloak_consent as consent
from . import keycloak_flow as flow
from . import keycloak_oidc as oidc
from . import keycloak_required_actions as actions
from .keycloak_messages import msg
from .keycloak_pages import Page, error_page, render


def _redirect(ctx, url):
    ctx.ex.redirect(302, url, ctx.headers)


def _page_expired(ctx):
    urls = dict(ctx.urls(), loginAction=ctx.action_url(with_code=False))
    return render(ctx, Page("login-page-expired.ftl", attrs={"url": urls}))


def reset_flow(tab):
    """AuthenticationProcessor.resetFlow: back to the flow's start."""
    tab.action, tab.flow_path, tab.execution, tab.active_code = "AUTHENTICATE", "authenticate", None, None
    tab.step, tab.user, tab.chosen = 0, None, {}
    tab.notes = {k: v for k, v in tab.notes.items() if k == "FORWARDED_ERROR"}


def _restart_from_cookie(ctx, root):
    cookie = ctx.ex.cookies.get("KC_RESTART")
    if not cookie:
        return error_page(ctx, "cookieNotFoundMessage")
    pending = ctx.rr.read_restart_cookie(cookie)
    if pending is None or pending.client_id not in CLIENTS:
        return error_page(ctx, "invalidCodeMessage")
    pending.issuer = ctx.realm_url
    ctx.root = root or ctx.rr.new_root(ctx.settings)
    ctx.tab = ctx.rr.new_auth_session(ctx.root, pending, ctx.settings)
    ctx.tab.notes["FORWARDED_ERROR"] = "loginTimeout"
    ctx.set_cookie("AUTH_SESSION_ID", ctx.root.id)
    return _redirect(ctx, ctx.tab_url("authenticate"))


def checks(ctx, flow_path, code=None, use_query_code=True):
    """SessionCodeChecks. Returns True (an action), False (a page view), or
    None once it has answered the request itself."""
    q = ctx.ex.query_params
    root = ctx.rr.root(ctx.ex.cookies.get("AUTH_SESSION_ID"), ctx.settings)
    tab = root.tabs.get(q.get("tab_id", "")) if root else None
    if tab is not None and q.get("client_id") and q["client_id"] != tab.client_id:
        tab = None
    if tab is None:
        if oidc.signed_in_user(ctx) is not None:
            # SessionCodeChecks: no login in progress, but a user session → info page
            render(ctx, Page("info.ftl", message=("success", msg("alreadyLoggedIn")), with_action=False,
                             attrs={"skipLink": True}))
        else:
            _restart_from_cookie(ctx, root)
        return None
    ctx.root, ctx.tab = root, tab
    if use_query_code:
        code = q.get("session_code")
    execution = q.get("execution")
    if code is None:
        if execution is not None and execution != tab.execution:
            _page_expired(ctx)
            return None
        is_action = False
    elif code != tab.active_code:
        if execution == tab.execution:
            tab.notes["FORWARDED_ERROR"] = "expiredActionMessage"
            _redirect(ctx, ctx.action_url(with_code=False))
        else:
            _page_expired(ctx)
        return None
    else:
        tab.active_code = None           # a code is good once (ClientSessionCode.parseResult)
        is_action = True
    if ctx.now() - tab.timestamp > ctx.settings.access_code_lifespan_login:
        reset_flow(tab)
        tab.notes["FORWARDED_ERROR"] = "loginTimeout"
        _redirect(ctx, ctx.tab_url("authenticate"))
        return None
    tab.timestamp = root.timestamp = ctx.now()
    expected = "authenticate" if flow_path == "authenticate" else "required-action"
    if tab.flow_path != expected:
        _page_expired(ctx)
        return None
    return is_action


def authenticate(ctx):
    is_action = checks(ctx, "authenticate")
    if is_action is None:
        return None
    if is_action:
        return flow.action(ctx, ctx.ex.form)
    return flow.render_current(ctx)


def required_action(ctx):
    is_action = checks(ctx, "required-action")
    if is_action is None:
        return None
    if is_action and ctx.ex.query_params.get("execution") != ctx.tab.execution:
        return _redirect(ctx, ctx.action_url(with_code=False))
    if is_action and ctx.tab.execution != "OAUTH_GRANT":
        return actions.process(ctx, ctx.ex.form)
    return actions.challenge(ctx)


def consent_post(ctx):
    """POST login-actions/consent. Keycloak 22+ reads the form field
    `session_code`, which login-oauth-grant.ftl does not send (it sends
    `code`), so the session is found by cookie and tab_id alone; older
    Keycloak checked `code` (config consent_checks_code)."""
    if ctx.ex.method != "POST":
        return ctx.ex.send(405, "", headers=[("Allow", "POST")])
    form = ctx.ex.form
    field = "code" if ctx.settings.consent_checks_code else "session_code"
    is_action = checks(ctx, "required-action", code=form.get(field), use_query_code=False)
    if is_action is None:
        return None
    if ctx.tab.execution != "OAUTH_GRANT":
        return _page_expired(ctx)
    return consent.decide(ctx, form)


def restart(ctx):
    """login-actions/restart (the "Restart login" link)."""
    q = ctx.ex.query_params
    root = ctx.rr.root(ctx.ex.cookies.get("AUTH_SESSION_ID"), ctx.settings)
    tab = root.tabs.get(q.get("tab_id", "")) if root else None
    if tab is None:
        return _restart_from_cookie(ctx, root)
    ctx.root, ctx.tab = root, tab
    reset_flow(tab)
    return _redirect(ctx, ctx.tab_url("authenticate"))


ROUTES = {"authenticate": authenticate, "required-action": required_action, "consent": consent_post,
          "restart": restart}


def route(ctx, name):
    handler = ROUTES.get(name)
    if handler is None:
        return ctx.ex.send(404, "not found\n")
    return handler(ctx)
