"""The replica's browser flow and its processor (AuthenticationProcessor,
DefaultAuthenticationFlow in Keycloak's services module).

The flow is a list of groups run in order. A group is one REQUIRED
execution, or ALTERNATIVE executions of which the user's first configured
one is shown; a CONDITIONAL group ("user configured") is skipped when the
user has none of its credentials. With more than one configured
alternative the page carries "Try another way" (`tryAnotherWay=on`), which
shows select-authenticator.ftl; posting `authenticationExecution=<id>`
there switches to that execution. An action must come for the current
execution (the `execution` query parameter), else "Page has expired".

    password        [Kerberos] · Username Password Form · 2FA{OTP | WebAuthn}
    username-first  Username Form · Password Form · 2FA{OTP | WebAuthn}
    passwordless    Username Form with passkeys · WebAuthn Passwordless
A REQUIRED execution the user is not configured for adds its required
action (WebAuthn Passwordless → webauthn-register-passwordless), as
Authenticator.setRequiredActions does.
"""
from dataclasses import dataclass

from . import keycloak_required_actions as actions
from .keycloak_authenticators import (ATTEMPTED, CANCEL, SUCCESS, OTPForm, PasswordForm,
                                      SpnegoAuthenticator, UsernameForm, UsernamePasswordForm)
from .keycloak_messages import msg
from .keycloak_pages import Page, error_page, render
from .keycloak_realm import execution_id
from .keycloak_webauthn_auth import WebAuthnAuthenticator, WebAuthnPasswordless


@dataclass
class Group:
    authenticators: list
    conditional: bool = False


def build(ctx) -> list:
    name, sc = ctx.ex.scenario, ctx.scenario

    def ex_id(provider):
        return execution_id(name, provider)
    groups = []
    if sc.kerberos:
        groups.append(Group([SpnegoAuthenticator(ex_id("auth-spnego"))]))
    second = Group([OTPForm(ex_id("auth-otp-form")), WebAuthnAuthenticator(ex_id("webauthn-authenticator"))], True)
    if sc.flow == "username-first":
        groups += [Group([UsernameForm(ex_id("auth-username-form"))]),
                   Group([PasswordForm(ex_id("auth-password-form"))]), second]
    elif sc.flow == "passwordless":
        passwordless = WebAuthnPasswordless(ex_id("webauthn-authenticator-passwordless"))
        groups += [Group([UsernameForm(ex_id("auth-username-form"), passkeys=passwordless)]), Group([passwordless])]
    else:
        groups += [Group([UsernamePasswordForm(ex_id("auth-username-password-form"))]), second]
    return groups


def _user(ctx):
    return ctx.rr.users.get(ctx.tab.user) if ctx.tab.user else None


def candidates(ctx, group) -> list:
    user = _user(ctx)
    return [a for a in group.authenticators if not a.requires_user or a.configured_for(ctx, user)]


def _pick(ctx, index, cands):
    chosen = ctx.tab.chosen.get(str(index))
    return next((a for a in cands if a.execution == chosen), cands[0])


def advance(ctx):
    """Run the flow from the tab's position to the next challenge or the end."""
    groups, tab = build(ctx), ctx.tab
    while tab.step < len(groups):
        group = groups[tab.step]
        cands = candidates(ctx, group)
        first = group.authenticators[0]
        if not cands or (first.passwordless and tab.notes.get("PASSKEY_DONE")):
            if cands == [] and not group.conditional and getattr(first, "required_action", None):
                tab.notes.setdefault("REQUIRED_ACTIONS", []).append(first.required_action)
            tab.step += 1
            continue
        chosen = _pick(ctx, tab.step, cands)
        tab.execution = chosen.execution
        return respond(ctx, chosen.authenticate(ctx), chosen, cands)
    return actions.complete(ctx)


def respond(ctx, result, authenticator, cands):
    tab = ctx.tab
    if result in (SUCCESS, ATTEMPTED):
        tab.step += 1
        return advance(ctx)
    if result == CANCEL:
        from . import keycloak_oidc  # noqa: PLC0415 (cycle: oidc finishes flows)
        return keycloak_oidc.send_error(ctx, "access_denied")
    if result == "spnego":
        return _kerberos_page(ctx)
    if result == "unavailable":
        return ctx.ex.send(501, "webauthn (py_webauthn) not installed\n")
    page = result.page
    page.try_another_way = len(cands) > 1 and authenticator in cands
    forwarded = tab.notes.pop("FORWARDED_ERROR", None)
    if forwarded and page.message is None and not page.errors:
        page.message = ("error", msg(forwarded))
    return render(ctx, page)


def _kerberos_page(ctx):
    """SpnegoAuthenticator.optionalChallengeRedirect, byte for byte in shape
    (the action URL is not HTML-escaped there either)."""
    body = ("<HTML><HEAD><TITLE>Kerberos Unsupported</TITLE></HEAD>"
            "<BODY Onload=\"document.forms[0].submit()\">"
            f"<FORM METHOD=\"POST\" ACTION=\"{ctx.action_url()}\">"
            "<NOSCRIPT><P>JavaScript is disabled. We strongly recommend to enable it. You were unable to login "
            "via Kerberos.  Click the button below to login via an alternative method .</P>"
            "<INPUT name=\"continue\" TYPE=\"SUBMIT\" VALUE=\"CONTINUE\" /></NOSCRIPT></FORM></BODY></HTML>")
    ctx.ex.send(401, body, "text/html;charset=UTF-8", ctx.headers + [("WWW-Authenticate", "Negotiate")])


def _current(ctx):
    groups = build(ctx)
    if ctx.tab.step >= len(groups):
        return None, None, []
    group = groups[ctx.tab.step]
    cands = candidates(ctx, group)
    current = next((a for a in group.authenticators if a.execution == ctx.tab.execution), None)
    return ctx.tab.step, current, cands


def render_current(ctx):
    """A GET of the flow (refresh, redirect after restart): the current challenge."""
    index, current, cands = _current(ctx)
    if current is None:
        return advance(ctx)
    return respond(ctx, current.authenticate(ctx), current, cands)


def action(ctx, form):
    index, current, cands = _current(ctx)
    if current is None:
        return advance(ctx)
    if "tryAnotherWay" in form and len(cands) > 1:
        selections = [{"authExecId": a.execution, "displayName": a.display_name, "helpText": a.help_text,
                       "iconCssClass": a.icon} for a in cands]
        return render(ctx, Page("select-authenticator.ftl", attrs={"authenticationSelections": selections}))
    if "authenticationExecution" in form:
        target = next((a for a in cands if a.execution == form["authenticationExecution"]), None)
        if target is None:
            return error_page(ctx, "invalidRequestMessage")
        ctx.tab.chosen[str(index)] = target.execution
        ctx.tab.execution = target.execution
        return respond(ctx, target.authenticate(ctx), target, cands)
    return respond(ctx, current.action(ctx, form), current, cands)
