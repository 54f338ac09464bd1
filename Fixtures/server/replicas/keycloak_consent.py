"""The consent page's answer (login-oauth-grant.ftl posted to login-actions/consent).

As LoginActionsService.processConsent: `cancel` in the form ends the login
with error=access_denied; anything else grants the requested client scopes
(remembered for the user and client, so the next login does not ask) and
answers the client.
"""
from . import keycloak_oidc as oidc
from . import keycloak_required_actions as actions


def decide(ctx, form):
    if "cancel" in form:
        return oidc.send_error(ctx, "access_denied")
    key = (ctx.tab.user, ctx.tab.client_id)
    ctx.rr.consents.setdefault(key, set()).update(actions.requested_scopes(ctx))
    return actions.next_step(ctx)
